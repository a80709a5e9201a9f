/**
 * The one body a WAF migration step PUTs to the `http_request_firewall_managed` entry point, whether
 * `zonewall migrate --mode` or `zonewall apply` (a manifest whose `waf_migration` steps forward)
 * takes the step: the two must never differ, or one of them loses the skip rules that carry
 * firewall rules which bypassed the previous WAF. Pure: the service's proposed configuration
 * ("Get new WAF configuration") is read by the provider into the live state beforehand.
 *
 * What is PUT, in order of preference:
 * 1. the manifest's own `managed_rules` when it has them (written by an earlier `migrate` run and
 *    perhaps adjusted, or by hand: the reviewed configuration wins over the proposal), with their
 *    refs so that a plan afterwards matches them, preceded by the proposal's (or, in validation
 *    state, the live entry point's) non-execute rules: the skip rules, which `managed_rules` cannot
 *    express and which only skip what follows them;
 * 2. in validation state (`both`), the live entry point: what has been validated;
 * 3. the service's proposal, shaped as the seed says (validation bodies omit id, version and ref).
 */
import type { DesiredManagedException, DesiredManagedRuleset } from '../../manifest/index.js';
import { exceptionRule, skipAttribute } from '../managed-rules/exceptions.js';
import { executeRule } from '../managed-rules/diff.js';
import { isExecuteRule } from '../managed-rules/live.js';
import type { EntrypointBody, EntrypointRule, LiveEntrypoint, ManagedOverrides } from '../managed-rules/live.js';
import type { WafState } from './live.js';

/** Where a migration body's execute rules come from. */
export type BodySource = 'manifest' | 'live' | 'proposal';

/** Overrides with empty lists and absent fields dropped; undefined when nothing is left. */
export function compactOverrides(o: ManagedOverrides | undefined): ManagedOverrides | undefined {
  if (o === undefined) return undefined;
  const out: ManagedOverrides = {};
  if (o.action !== undefined) out.action = o.action;
  if (o.enabled !== undefined) out.enabled = o.enabled;
  if (o.categories !== undefined && o.categories.length > 0) out.categories = o.categories.map((c) => ({ ...c }));
  if (o.rules !== undefined && o.rules.length > 0) out.rules = o.rules.map((r) => ({ ...r }));
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The body of a migration PUT built from the service's proposal. In validation mode the rule
 * objects omit `id`, `version` and `ref`; in pending mode they carry them as the configuration
 * operation returned them (seed 002, "Notes").
 */
export function proposalBody(proposal: EntrypointBody, mode: 'validation' | 'pending'): EntrypointBody {
  const rules = proposal.rules.map((rule) => {
    const copy: EntrypointRule = structuredClone(rule);
    if (mode === 'validation') {
      delete copy.id;
      delete copy.version;
      delete copy.ref;
    }
    delete copy.last_updated;
    return copy;
  });
  return { ...(proposal.name !== undefined ? { name: proposal.name } : {}), rules };
}

/** The body of a PUT built from the manifest's (normalised) `managed_rules`. */
export function desiredBody(managed: readonly DesiredManagedRuleset[], name = 'default'): EntrypointBody {
  return {
    name,
    rules: managed.map((m) => executeRule(m, undefined)),
  };
}

/** A live rule sent back as it is: server-filled fields left out. */
function keptRule(rule: EntrypointRule): EntrypointRule {
  const { version: _version, last_updated: _updated, ...rest } = rule;
  return rest;
}

/** What a migration step needs to build its body. */
export interface MigrationBodyInput {
  /** The manifest's normalised `managed_rules`, if it has the section. */
  managedRules: readonly DesiredManagedRuleset[] | undefined;
  /** The manifest's managed-rules exceptions (with `managedRules`). */
  managedExceptions?: readonly DesiredManagedException[];
  /** The zone's entry point now. */
  entrypoint: LiveEntrypoint | null;
  /** The service's proposed configuration (unused in state `both`). */
  proposal: EntrypointBody;
  /** The zone's WAF state before the step. */
  before: WafState;
  mode: 'validation' | 'pending';
}

/** The body of a migration step and where its execute rules come from (see the file comment). */
export function migrationBody(input: MigrationBodyInput): { body: EntrypointBody; source: BodySource } {
  const { managedRules, entrypoint, proposal, before, mode } = input;
  const base: readonly EntrypointRule[] = before === 'both' ? entrypoint?.rules ?? [] : proposal.rules;
  if (managedRules !== undefined) {
    const others = before === 'both'
      ? base.filter((r) => !isExecuteRule(r)).map(keptRule)
      : proposalBody({ rules: base.filter((r) => !isExecuteRule(r)) }, mode).rules;
    const own = desiredBody(managedRules, entrypoint?.name ?? proposal.name ?? 'default');
    const exceptions = input.managedExceptions ?? [];
    // The manifest's exceptions stand where it puts them; a proposed skip rule one of them describes is not sent twice.
    const rules = own.rules.flatMap((r, i) => [...exceptions.filter((e) => e.after === i).map((e) => exceptionRule(e, undefined)), r]);
    rules.push(...exceptions.filter((e) => e.after >= own.rules.length).map((e) => exceptionRule(e, undefined)));
    const described = (r: EntrypointRule) => exceptions.some((e) => (r.ref !== undefined && r.ref !== '' && r.ref === e.ref)
      || (!isExecuteRule(r) && r.expression === e.expression && JSON.stringify(skipAttribute(r.action_parameters)) === JSON.stringify(skipAttribute(e.skip))));
    // Skip rules first: they skip what follows them in the entry point.
    return { body: { ...own, rules: [...others.filter((r) => !described(r)), ...rules] }, source: 'manifest' };
  }
  if (before === 'both' && entrypoint !== null) {
    return { body: { name: entrypoint.name, rules: entrypoint.rules.map(keptRule) }, source: 'live' };
  }
  return { body: proposalBody(proposal, mode), source: 'proposal' };
}
