/**
 * Export of the custom phase: `custom_rules` from the `http_request_firewall_custom` entry point,
 * in list order (the evaluation order), each rule under a key: its ref when zonewall could have
 * written it (a valid key that is not the rule's id, the API's default), else a slug of its
 * description, else `rule-<id8>`. Rules a manifest cannot express (another action, an expression
 * that does not parse, parameters zonewall does not know) are left out and listed. Adoption is one
 * PUT of the entry point that sends every rule with its id, so ids are kept: exported rules get
 * their key as `ref`, and a left-out rule holding a ref gets its id as ref, so that plans keep it
 * as unmanaged instead of deleting it.
 */
import { putInOrder } from '../export-order.js';
import type { CustomRule, CustomRuleParameters as ManifestParameters } from '../../manifest/index.js';
import type { Canonicalizer } from '../canonical.js';
import { isUnmanagedCustomRule } from './attributes.js';
import { KeyAllocator, freshKey, isValidKey } from '../export-keys.js';
import type { ExportedObject, SkippedObject } from '../export-types.js';
import { CustomRuleActions, type CustomRuleBody, type LiveCustomEntrypoint, type LiveCustomRule } from './live.js';
import { SkipPhaseOrder, SkipProducts } from '../../api/index.js';

/** The `custom_rules` part of an export. */
export interface CustomExport {
  rules: Record<string, CustomRule>;
  objects: ExportedObject[];
  skipped: SkippedObject[];
  /** The PUT that adopts the rules; null when every rule already carries its key. */
  adoption: { description?: string; rules: CustomRuleBody[] } | null;
}

const Actions: readonly string[] = CustomRuleActions;

/** Why a rule cannot be written in `custom_rules`; undefined when it can. */
function problemOf(r: LiveCustomRule, canon: Canonicalizer): string | undefined {
  if (!Actions.includes(r.action)) return `action ${r.action} cannot be written in custom_rules`;
  const c = canon(r.expression);
  if (!c.ok) return `its expression does not parse (${c.reason})`;
  const p = (r.action_parameters ?? {}) as Record<string, unknown>;
  const allowed = r.action === 'block' ? ['response'] : r.action === 'skip' ? ['ruleset', 'phase', 'phases', 'products'] : [];
  const extra = Object.keys(p).filter((k) => !allowed.includes(k));
  if (extra.length > 0) return `action_parameters ${extra.join(', ')} cannot be written in custom_rules`;
  if (r.action === 'skip' && Object.keys(p).length === 0) return 'a skip rule without anything to skip cannot be written in custom_rules';
  const unknown = [...((p.phases as string[] | undefined) ?? []).filter((x) => !(SkipPhaseOrder as readonly string[]).includes(x)),
    ...((p.products as string[] | undefined) ?? []).filter((x) => !(SkipProducts as readonly string[]).includes(x))];
  if (unknown.length > 0) return `skip of ${unknown.join(', ')} cannot be written in custom_rules`;
  return undefined;
}

/** One live rule as a manifest entry: defaults left out. */
function ruleOf(r: LiveCustomRule): CustomRule {
  const out: CustomRule = { action: r.action as CustomRule['action'], expression: r.expression };
  if (r.description) out.description = r.description;
  if (r.enabled === false) out.enabled = false;
  if (r.action === 'skip' && r.logging?.enabled === false) out.logging = { enabled: false };
  const p = r.action_parameters;
  if (p !== undefined && Object.keys(p).length > 0) out.action_parameters = { ...p } as ManifestParameters;
  return out;
}

/** Exports the custom phase; undefined when the zone has no entry point (the section is left out). */
export function exportCustomRules(entry: LiveCustomEntrypoint | null | undefined, canon: Canonicalizer): CustomExport | undefined {
  if (entry === null || entry === undefined) return undefined;
  const out: CustomExport = { rules: {}, objects: [], skipped: [], adoption: null };
  const keys = new KeyAllocator();
  const exportable = entry.rules.filter((r) => {
    const problem = problemOf(r, canon);
    if (problem !== undefined) out.skipped.push({ kind: 'custom_rule', id: r.id, ...(r.ref !== undefined ? { ref: r.ref } : {}), reason: `${problem}; it stays in the zone unmanaged and plans keep it in its place` });
    return problem === undefined;
  });
  const kept = new Set(exportable.filter((r) => !isUnmanagedCustomRule(r) && isValidKey(r.ref) && keys.claim(r.ref)));
  const refs = new Map<LiveCustomRule, string>();
  for (const r of exportable) {
    const { key, from } = kept.has(r) ? { key: r.ref!, from: 'ref' as const } : freshKey(keys, 'rule', r.id, r.description);
    refs.set(r, key);
    putInOrder(out.rules, key, ruleOf(r));
    out.objects.push({ kind: 'custom_rule', id: r.id, key, from, refChange: !kept.has(r), inline: false });
  }
  const disown = entry.rules.filter((r) => !refs.has(r) && !isUnmanagedCustomRule(r));
  if (out.objects.some((o) => o.refChange) || disown.length > 0) {
    const rules = entry.rules.map((r) => {
      const { version: _v, last_updated: _l, ...rest } = r;
      return { ...rest, ref: refs.get(r) ?? r.id };
    });
    out.adoption = { ...(entry.description ? { description: entry.description } : {}), rules };
  }
  return out;
}
