/**
 * Text views of `plan` and `apply`: each zone's plan (through `plan/render/text.ts`), what the run
 * did besides planning (a zone the embedded engine does not have yet, and creates at apply's first
 * write), per-zone errors, and the closing
 * summary of a multi-zone run. Renders only.
 */
import { ZonewallError } from '../../errors.js';
import { addSummaries, estimateRun, hasChanges, renderPlanText, renderRunCalls, renderSummaryLine, zoneLookups, type Style } from '../../plan/index.js';
import type { Provider } from '../../providers/index.js';
import type { RunOutline, ZoneRun } from '../commands/plan-run.js';

/** The notice printed when the embedded engine does not have a run's zone yet (nothing is created by planning). */
export function missingNotice(run: ZoneRun, provider: Pick<Provider, 'description'>): string | undefined {
  if (run.missing !== true || run.zone === undefined) return undefined;
  return `zone ${run.zone.name} is not in the ${provider.description} yet: planned as a new ${run.zone.plan ?? run.desired.plan ?? 'enterprise'} zone, created by apply at its first write`;
}

/** The notice of a zone the embedded engine created during the run (at its first write); empty when it did not. */
export function createdNotices(provider: Pick<Provider, 'description' | 'zonesCreated'>, zoneId: string): string {
  return (provider.zonesCreated ?? []).filter((z) => z.id === zoneId).map((z) => `created zone ${z.name} (${z.plan ?? 'enterprise'}) in the ${provider.description}\n`).join('');
}

/**
 * One line for an error, with the code when it is a zonewall error. Anything else is a bug (a
 * TypeError from an answer of a shape zonewall did not expect, say) and says so, as the CLI's
 * error boundary does, instead of passing for an ordinary error.
 */
export function errorLine(err: Error, s: Style): string {
  if (!(err instanceof ZonewallError)) {
    return `${s.red(s.bold('internal error'))}: ${err.name}: ${err.message.split('\n')[0]} (this is a bug in zonewall; please report it)`;
  }
  return `${s.red(s.bold('error'))} [${err.code}]: ${err.message}`;
}

/** The text of one zone of a run: its plan, or its error. */
export function renderZoneRun(run: ZoneRun, s: Style): string {
  if (run.plan !== undefined) return renderPlanText(run.plan, s);
  return `${s.bold(`${run.desired.zone} — ${run.desired.file}`)}\n\n${errorLine(run.error ?? new Error('not planned'), s)}\n`;
}

/** The closing summary of a run over several zones. */
export function renderRunSummary(runs: readonly RunOutline[], manifestErrors: number, s: Style): string {
  const plans = runs.flatMap((r) => (r.plan !== undefined ? [r.plan] : []));
  const changed = plans.filter((p) => hasChanges(p)).length;
  const failed = runs.length - plans.length;
  const parts = [`${runs.length} zone${runs.length === 1 ? '' : 's'}: ${changed} with changes, ${plans.length - changed} up to date, ${failed} failed`];
  if (manifestErrors > 0) parts.push(`${manifestErrors} manifest error${manifestErrors === 1 ? '' : 's'}`);
  return `${s.bold(`Total: ${renderSummaryLine(addSummaries(plans.map((p) => p.summary)))}`)}\n${parts.join('; ')}.\n`;
}

/**
 * The run's API call estimate (reads and writes of every zone, against the budget they share), for
 * a provider with a request budget; undefined for the embedded engine, which has none.
 */
export function runCallsLine(runs: readonly RunOutline[], provider: Pick<Provider, 'rateLimit'>): string | undefined {
  const budget = provider.rateLimit;
  if (budget === undefined) return undefined;
  const plans = runs.flatMap((r) => (r.plan !== undefined ? [r.plan] : []));
  const names = runs.filter((r) => !/^[0-9a-f]{32}$/.test(r.desired.zone)).length;
  const lookups = zoneLookups(names) + (runs.length - names);
  return renderRunCalls(estimateRun(plans, lookups, { budgetRequests: budget.requests, budgetWindowSeconds: budget.seconds }));
}
