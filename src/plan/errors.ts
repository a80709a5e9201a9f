/**
 * The planner's refusals: `UnsafePlanError` (ERR_UNSAFE_PLAN) when a plan has error findings (never
 * applicable) or danger findings without `--force`, after octoDNS's `UnsafePlan`. The message names
 * every finding and the way out.
 */
import { ZonewallError } from '../errors.js';
import type { Finding } from './finding.js';
import type { Plan } from './plan.js';

/** Apply refused a plan because of its findings. */
export class UnsafePlanError extends ZonewallError {
  readonly findings: Finding[];

  constructor(message: string, findings: Finding[]) {
    super('ERR_UNSAFE_PLAN', message);
    this.findings = findings;
  }
}

function list(findings: readonly Finding[]): string {
  return findings.map((f) => `  - ${f.code}: ${f.message}`).join('\n');
}

/**
 * Throws unless the plan may be applied: error findings always refuse; danger findings refuse
 * unless `force`.
 */
export function assertApplicable(plan: Pick<Plan, 'zone' | 'findings'>, options: { force: boolean }): void {
  const errors = plan.findings.filter((f) => f.level === 'error');
  if (errors.length > 0) {
    throw new UnsafePlanError(`the plan for ${plan.zone.name} cannot be applied (--force does not override these):\n${list(errors)}`, errors);
  }
  const dangers = plan.findings.filter((f) => f.level === 'danger');
  if (dangers.length > 0 && !options.force) {
    throw new UnsafePlanError(`the plan for ${plan.zone.name} is unsafe; review it and apply with --force if intended:\n${list(dangers)}`, dangers);
  }
}
