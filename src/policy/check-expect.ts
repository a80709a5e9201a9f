/**
 * Expectations of one case that no verdict can meet together (`judge.ts` decides what each means):
 * `allowed: true` with an action that stops the request (`block`, a challenge), `allowed: false`
 * with one that lets it go on (`allow`, `log`, `bypass`, `skip`), and `matched: []` with `log`,
 * `bypass` or `skip` (which hold only when a rule of that action matched). In a burst case, where
 * `allowed: true` means no request got an action: `first`, an `action` or a rule in `matched`
 * (each needs a request that got an action) with `allowed: true` or `acted: 0`, and `acted` above 0
 * with `allowed: true`. Such a case could only
 * fail, whatever the rules: it is refused when the cases file loads, at the field it contradicts.
 */
import type { ManifestIssue } from '../manifest/index.js';
import type { DocPath } from '../manifest/index.js';

/** Actions after which the request goes on to the origin (judge.ts: `allow`, and the non-terminating ones). */
const GoesOn = new Set(['allow', 'log', 'bypass', 'skip']);
/** Actions that hold only when a rule of that action matched. */
const NeedsMatch = new Set(['log', 'bypass', 'skip']);

/** The contradictions of `expect` at `path` (the case's `expect`), located by `issue`. */
export function checkExpectation(expect: Record<string, unknown>, path: DocPath, issue: (path: DocPath, message: string) => ManifestIssue, burst = false): ManifestIssue[] {
  if (burst) return checkBurstExpectation(expect, path, issue);
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

/** The contradictions of a burst case's `expect` (see the file comment; `burst.ts` judges them). */
function checkBurstExpectation(expect: Record<string, unknown>, path: DocPath, issue: (path: DocPath, message: string) => ManifestIssue): ManifestIssue[] {
  const { allowed, acted, first, action, matched } = expect;
  const out: ManifestIssue[] = [];
  // `first`, `action` and a rule in `matched` each need a request that got an action.
  const needing: [string, string][] = [
    ...(first !== undefined ? [['first', 'first expects a request to get an action'] as [string, string]] : []),
    ...(typeof action === 'string' ? [['action', `action ${action} expects a request to get it`] as [string, string]] : []),
    ...(Array.isArray(matched) && matched.length > 0 ? [['matched', 'matched expects a rate limiting rule to act'] as [string, string]] : []),
  ];
  const both = 'no burst meets both; keep one of them';
  if (allowed === true) {
    for (const [field, what] of needing) out.push(issue([...path, field], `${what}, and allowed: true expects no request to get one: ${both}`));
    if (typeof acted === 'number' && acted > 0) out.push(issue([...path, 'acted'], `acted: ${acted} expects requests to get an action, and allowed: true expects none to: ${both}`));
  }
  if (acted === 0) {
    for (const [field, what] of needing) out.push(issue([...path, field], `${what}, and acted: 0 expects no request to get one: ${both}`));
  }
  return out;
}
