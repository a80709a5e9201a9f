/** Manifests and small helpers shared by the plan/apply end-to-end tests. */
import type { ChangeJson, PlanJson } from '../../src/plan/index.js';
import type { CliRun } from './e2e-cli.js';

/** The zone of `v1`. */
export const ZONE = 'e2e.example.com';

/** A small zone: a shared filter, two inline filters, three rules. */
export const v1 = `zone: ${ZONE}
plan: enterprise
filters:
  api:
    expression: http.request.uri.path matches "^/api/"
firewall_rules:
  block-api:
    action: block
    filter: api
  challenge-bots:
    action: managed_challenge
    filter:
      expression: http.user_agent contains "sqlmap"
  block-ip:
    action: block
    filter:
      expression: ip.src eq 198.51.100.7
`;

/** The plan document printed by `plan --json`. */
export function planJson(run: CliRun): PlanJson {
  try {
    return JSON.parse(run.stdout) as PlanJson;
  } catch {
    throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
}

/** The plan document inside `apply --json`'s output. */
export function applyJson(run: CliRun): { plan: PlanJson; results: { ok: boolean; outcomes: { kind: string; ref: string; status: string }[] }[] } {
  try {
    return JSON.parse(run.stdout) as ReturnType<typeof applyJson>;
  } catch {
    throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
  }
}

/** The changes of the first zone that are not no-ops. */
export function active(doc: PlanJson): ChangeJson[] {
  return doc.zones[0]!.changes.filter((c) => c.action !== 'no-op');
}

/** `action kind ref reason` of each active change. */
export function described(doc: PlanJson): string[] {
  return active(doc).map((c) => `${c.action} ${c.kind} ${c.ref || '(unmanaged)'} ${c.reason}`);
}
