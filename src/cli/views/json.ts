/**
 * JSON views: the plan document of a run (`plan --json`, `plan --out`; the format of
 * `schemas/plan.schema.json`) and the apply document (`apply --json`: the plan document plus one
 * result per zone). Renders only.
 */
import type { ApplyZoneResult } from '../../apply/index.js';
import { ZonewallError } from '../../errors.js';
import { planDocument, type Plan, type PlanErrorJson, type PlanJson } from '../../plan/index.js';
import type { Provider } from '../../providers/index.js';
import type { ZoneRun } from '../commands/plan-run.js';

/** The zonewall version written into documents. */
export const ZonewallVersion = '0.1.0';

/**
 * The format version of the CLI's own `--json` documents (`apply`, `validate`, `migrate status`).
 * Every zonewall document follows one convention: snake_case fields, a `kind` (`zonewall.<what>`)
 * and a `format_version` string `MAJOR.MINOR` (the plan's is `PlanFormatVersion`); readers accept
 * any minor of their major and ignore fields they do not know.
 */
export const JsonFormatVersion = '1.0';

/** A `--json` document: `format_version`, `kind`, then the body's fields. */
export function jsonDocument<T extends object>(kind: string, body: T): { format_version: string; kind: string } & T {
  return { format_version: JsonFormatVersion, kind: `zonewall.${kind}`, ...body };
}

/** A run's errors in the plan document's shape. */
export function runErrors(runs: readonly ZoneRun[], manifestErrors: readonly PlanErrorJson[] = []): PlanErrorJson[] {
  const out = [...manifestErrors];
  for (const run of runs) {
    if (run.error === undefined) continue;
    out.push({ file: run.desired.file, zone: run.desired.zone, code: run.error instanceof ZonewallError ? run.error.code : 'ERR_INTERNAL', message: run.error.message });
  }
  return out;
}

/** Where a plan document's zones were read (and where `apply plan.json` must write). */
function providerJson(provider: Pick<Provider, 'kind' | 'description' | 'target'>): NonNullable<PlanJson['provider']> {
  return { kind: provider.kind, description: provider.description, target: provider.target };
}

/** The plan document of a run. */
export function runDocument(runs: readonly ZoneRun[], provider: Pick<Provider, 'kind' | 'description' | 'target'>, manifestErrors: readonly PlanErrorJson[] = []): PlanJson {
  const plans = runs.flatMap((r) => (r.plan !== undefined ? [r.plan] : []));
  return planDocument(plans, runErrors(runs, manifestErrors), { zonewallVersion: ZonewallVersion, provider: providerJson(provider) });
}

/** Why an apply was refused before any write (`refused` of the apply document). */
export interface ApplyRefusal {
  code: string;
  message: string;
}

/**
 * The apply document (`schemas/apply.schema.json`), one shape for every outcome: the plan document,
 * a result per zone that was applied, `applied` (every zone with changes was applied, or none had
 * any), and `refused` when the apply stopped before any write (findings, manifest errors, no
 * confirmation, a stale saved plan, ...).
 */
export function applyDocument(plan: PlanJson, results: readonly ApplyZoneResult[], outcome: { applied: boolean; refused?: ApplyRefusal }): unknown {
  return jsonDocument('apply', {
    zonewall_version: ZonewallVersion,
    applied: outcome.refused === undefined && outcome.applied,
    ...(outcome.refused !== undefined ? { refused: { code: outcome.refused.code, message: outcome.refused.message } } : {}),
    plan,
    results: results.map((r) => ({
      zone: r.zone,
      ok: r.ok,
      requests: r.requests,
      outcomes: r.outcomes,
      ...(r.error !== undefined ? { error: r.error } : {}),
      ...(r.record !== undefined ? { rollback: { bookmark: r.record.bookmark, at: r.record.at } } : {}),
    })),
  });
}

/** A plan document holding given plans (apply of a saved plan re-renders them). */
export function plansDocument(plans: readonly Plan[], provider: Pick<Provider, 'kind' | 'description' | 'target'>): PlanJson {
  return planDocument(plans, [], { zonewallVersion: ZonewallVersion, provider: providerJson(provider) });
}
