/**
 * The order of firewall rule deletions: last-evaluated-first (the reverse of `compareFirewallRules`
 * over the live rules), so every state between two delete batches keeps a head of the old
 * evaluation order. When the same apply has enabled the custom rules converted from them (which
 * run after every firewall rule, in the same order), each such state decides every request as the
 * start and the end state do: a request either meets its deciding rule among the firewall rules
 * still there, or among the custom rules that copy the deleted ones (issue 32: no window on the
 * GitOps path of an upgrade).
 */
import { compareFirewallRules, type FirewallOrderKey } from '../../api/index.js';
import type { Change } from '../change.js';

function keyOf(c: Change): FirewallOrderKey {
  const before = c.before ?? {};
  return {
    priority: typeof before.priority === 'number' ? before.priority : null,
    action: typeof before.action === 'string' ? before.action : '',
    ref: c.ref,
    id: c.id ?? '',
  };
}

/** Deletions of firewall rules, last-evaluated-first. */
export function lastEvaluatedFirst(a: Change, b: Change): number {
  return compareFirewallRules(keyOf(b), keyOf(a));
}
