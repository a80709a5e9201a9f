/**
 * Pre-flight: a plan's writes run through the service's own validation before anything is written,
 * so what apply would refuse is an error at plan time (issue 31). It reuses apply's write sequence
 * itself (`runPlan`: the same phases, batches, executors and id bookkeeping), sent to the
 * provider's `validator`: on the embedded engine a copy of the zone in a scratch engine, where each
 * write meets the state the earlier ones made and the copy is then dropped; on a remote API, the
 * Rulesets writes with `dry_run=true`. The first refusal becomes an error finding that names the
 * object, where the manifest says it, and the service's message and code.
 */
import { hasChanges, sharedFinding, type Finding, type Plan } from '../plan/index.js';
import type { Provider } from '../providers/index.js';
import { runPlan, type ApplyResult } from './run.js';

/** Where the manifest declares an object (`plan`'s `locateObject` over the plan's desired zone). */
export type Locate = (kind: string, ref: string) => Finding['location'];

/**
 * What the run writes before the zone's rules, written to the validator first (the account's lists
 * the run creates or fills: a rule's `$name` is checked against them). On a remote API's validator
 * nothing can be written, so it does nothing there.
 */
export type PreflightPrepare = (validator: Provider) => Promise<void>;

/** Runs a plan's writes through the provider's validation; the error findings of a refusal (none when it would apply). */
export async function preflightFindings(plan: Plan, provider: Provider, locate?: Locate, prepare?: PreflightPrepare): Promise<Finding[]> {
  if (provider.validator === undefined || !hasChanges(plan)) return [];
  const validator = await provider.validator(plan.zone.id);
  let result: ApplyResult;
  try {
    try {
      await prepare?.(validator);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return [sharedFinding('preflight-refused', `apply would be refused at the account's list writes: ${serviceReason(why)}; nothing was written (pre-flight)`)];
    }
    result = await runPlan(plan, validator);
  } finally {
    await validator.close();
  }
  if (result.ok || result.error === undefined) return [];
  const failed = result.outcomes.filter((o) => o.status !== 'applied' && o.status !== 'not-applied');
  const first = failed[0];
  const more = failed.length > 1 ? ` (the request also carried ${failed.length - 1} other change${failed.length > 2 ? 's' : ''})` : '';
  const what = first === undefined ? `the ${result.error.phase} writes` : `${first.kind} "${first.ref}"`;
  const location = first === undefined ? undefined : locate?.(first.kind, first.ref);
  const message = `apply would be refused at ${what}${more}: ${serviceReason(result.error.message)}; nothing was written (pre-flight)`;
  return [sharedFinding('preflight-refused', message, { ...(first !== undefined ? { kind: first.kind, ref: first.ref } : {}), ...(location !== undefined ? { location } : {}) })];
}

/** The service's reasons of a refusal message (`PUT /zones/… refused with HTTP 400: reason (code)` → `reason (code)`). */
function serviceReason(message: string): string {
  const at = message.indexOf(' refused with HTTP ');
  if (at < 0) return message;
  const colon = message.indexOf(': ', at);
  return colon < 0 ? message : message.slice(colon + 2);
}
