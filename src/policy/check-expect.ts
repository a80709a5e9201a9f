/**
 * Expectations of one case that no verdict can meet together (`judge.ts` decides what each means):
 * `allowed: true` with an action that stops the request (`block`, a challenge), `allowed: false`
 * with one that lets it go on (`allow`, `log`, `bypass`, `skip`), and `matched: []` with `log`,
 * `bypass` or `skip` (which hold only when a rule of that action matched). Such a case could only
 * fail, whatever the rules: it is refused when the cases file loads, at the `action` it contradicts.
 */
import type { ManifestIssue } from '../manifest/index.js';
import type { DocPath } from '../manifest/index.js';

/** Actions after which the request goes on to the origin (judge.ts: `allow`, and the non-terminating ones). */
const GoesOn = new Set(['allow', 'log', 'bypass', 'skip']);
/** Actions that hold only when a rule of that action matched. */
const NeedsMatch = new Set(['log', 'bypass', 'skip']);

/** The contradictions of `expect` at `path` (the case's `expect`), located by `issue`. */
export function checkExpectation(expect: Record<string, unknown>, path: DocPath, issue: (path: DocPath, message: string) => ManifestIssue): ManifestIssue[] {
  const { action, allowed, matched } = expect;
  if (typeof action !== 'string') return [];
  const out: ManifestIssue[] = [];
  if (typeof allowed === 'boolean' && allowed !== GoesOn.has(action)) {
    out.push(issue([...path, 'action'], allowed
      ? `action ${action} stops the request, and allowed: true expects it to reach the origin: no verdict meets both; keep one of them`
      : `action ${action} lets the request go on, and allowed: false expects it to be stopped: no verdict meets both; keep one of them`));
  }
  if (NeedsMatch.has(action) && Array.isArray(matched) && matched.length === 0) {
    out.push(issue([...path, 'action'], `action ${action} holds only when a rule with that action matched, and matched: [] expects no rule to match: no verdict meets both; keep one of them`));
  }
  return out;
}
