/**
 * The one evaluation order of firewall rules, shared by every layer (the engine's list and trace,
 * the offline evaluator, `export`, the conversion to custom rules): `priority` ascending, rules
 * without one (`null`) after every prioritised rule (reference/custom-rules.md §4.1), equal
 * priorities by action precedence (`FirewallActions`: `log` first, `block` last), then, for rules of
 * the same priority and action, by `ref` and then `id`, compared as Unicode code points (the order
 * SQLite's BINARY collation gives UTF-8 text, so the engine's SQL and this comparator agree).
 *
 * Decision (the service's tie-break is unconfirmed, custom-rules.md §6): the tie-break is a stable
 * key, not creation or manifest order, so a manifest (whose keys are the rules' refs), the list the
 * API answers and every evaluator agree by construction, whatever order the rules were written or
 * listed in. Rules without a ref (`''`) come before those with one, among themselves by id. The
 * order between rules of the same priority and action only decides which rule is credited with
 * a request both match (the action is the same), never the request's outcome.
 */
import { FirewallActions } from './firewall-rules.js';

/** What the order reads of a firewall rule (the wire object, a manifest rule, an engine record). */
export interface FirewallOrderKey {
  priority: number | null;
  action: string;
  /** The rule's ref (a manifest rule's key); absent or `''` when it has none. */
  ref?: string | undefined;
  /** The rule's id; absent offline, where the ref is the rule's name. */
  id?: string | undefined;
}

/** An action's place in the precedence order; an unknown action after every known one. */
export function firewallActionRank(action: string): number {
  const rank = (FirewallActions as readonly string[]).indexOf(action);
  return rank < 0 ? FirewallActions.length : rank;
}

/** Two strings in Unicode code point order (UTF-8 byte order), not UTF-16 code unit order. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800–DFFF) stands for a code point above U+FFFF: after every BMP character.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The firewall rule evaluation order as a comparator: negative when `a` runs first.
 * @example rules.slice().sort(compareFirewallRules)
 */
export function compareFirewallRules(a: FirewallOrderKey, b: FirewallOrderKey): number {
  const pa = a.priority;
  const pb = b.priority;
  if ((pa === null) !== (pb === null)) return pa === null ? 1 : -1;
  if (pa !== pb) return (pa ?? 0) < (pb ?? 0) ? -1 : 1;
  const ra = firewallActionRank(a.action);
  const rb = firewallActionRank(b.action);
  if (ra !== rb) return ra < rb ? -1 : 1;
  return compareCodePoints(a.ref ?? '', b.ref ?? '') || compareCodePoints(a.id ?? '', b.id ?? '');
}

/**
 * The rules in evaluation order (a new array; the input is not changed).
 * @example firewallRulesInOrder(live.firewallRules)
 */
export function firewallRulesInOrder<T>(rules: readonly T[], of: (rule: T) => FirewallOrderKey = (rule) => rule as unknown as FirewallOrderKey): T[] {
  return rules.map((rule) => ({ rule, k: of(rule) })).sort((a, b) => compareFirewallRules(a.k, b.k)).map(({ rule }) => rule);
}
