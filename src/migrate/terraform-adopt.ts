/**
 * The seed's "import it into the tool's state" step for a converted Terraform state: zonewall keeps
 * no state file, a live object is managed when its `ref` is its manifest key. So the live objects the
 * state's ids name are adopted: each converted filter and firewall rule found by its id gets its key
 * as ref, and each entry point rule executing a converted ruleset gets the item's ref. Pure: the
 * writes are data (the export's `AdoptionWrites`), the CLI sends them. Previous-WAF packages, groups
 * and rules are keyed by their ids already and need nothing.
 */
import { CustomPhase, ManagedPhase, RatelimitPhase } from '../api/index.js';
import type { AdoptionWrites, CustomRuleBody, EntrypointBody, EntrypointRule, LiveZone, RateLimitRuleBody } from '../plan/index.js';
import { adoptionFilterBody, adoptionRuleBody, isExecuteRule } from '../plan/index.js';
import { ManagedRulesetIds } from './constants.js';
import type { ConvertedManifest } from './terraform-converted.js';
import type { ConvertedPhaseRules } from './terraform-phases.js';

/** What adoption does and what it could not find. */
export interface TerraformAdoption {
  writes: AdoptionWrites;
  /** `kind id as key` for each object that gets its ref. */
  adopted: string[];
  /** Addresses whose id the zone does not have (the plan will create them). */
  missing: string[];
}

/** A live entry point rule sent back: server-filled fields left out. */
function kept(rule: EntrypointRule): EntrypointRule {
  const { version: _v, last_updated: _l, ...rest } = rule;
  return rest;
}

/** The entry point with each converted item's ref on the live rule executing its ruleset, or null. */
function adoptEntrypoint(converted: ConvertedManifest, live: LiveZone, adopted: string[]): EntrypointBody | null {
  const entries = converted.managedRules?.entries ?? [];
  const current = live.entrypoint;
  if (entries.length === 0 || current === null) return null;
  const rules = current.rules.map(kept);
  const claimed = new Set<number>();
  let changed = false;
  // Exceptions are adopted by the skip rule id the state names: the live rule gets the exception's ref.
  for (const { ref, id } of converted.managedRules?.exceptions ?? []) {
    const i = rules.findIndex((r) => r.id === id && r.action === 'skip');
    if (i < 0) continue;
    claimed.add(i);
    if (rules[i]!.ref === ref) continue;
    rules[i] = { ...rules[i]!, ref };
    adopted.push(`managed rules exception ${id} as ${ref}`);
    changed = true;
  }
  for (const entry of entries) {
    // Deployments are adopted by the ruleset they execute (exceptions above, by id).
    if (entry.ruleset === undefined) continue;
    const rulesetId = (ManagedRulesetIds as Record<string, string>)[entry.ruleset] ?? entry.ruleset;
    const i = rules.findIndex((r, j) => !claimed.has(j) && isExecuteRule(r) && r.action_parameters.id === rulesetId);
    if (i < 0) continue;
    claimed.add(i);
    const ref = entry.ref ?? entry.ruleset;
    if (rules[i]!.ref === ref) continue;
    rules[i] = { ...rules[i]!, ref };
    adopted.push(`managed ruleset ${rules[i]!.id ?? ''} as ${ref}`);
    changed = true;
  }
  return changed ? { name: current.name, ...(current.description !== undefined ? { description: current.description } : {}), rules } : null;
}

/** A live rule of a rules phase (custom, rate limiting), as adoption needs it. */
interface PhaseRule { id: string; ref?: string; version?: string; last_updated?: string }

/**
 * A rules phase's entry point with each converted rule's key as ref on the live rule of the state's
 * id, or null when every one has it. A live rule the state does not convert but that holds a ref of
 * its own gets its id as ref (the API's default), so the plan keeps it as unmanaged instead of
 * deleting it. `body` completes a rule as the phase's PUT takes it.
 */
function adoptPhase<R extends PhaseRule, B>(
  label: string, converted: ConvertedPhaseRules<unknown> | undefined, current: { description?: string; rules: R[] } | null | undefined,
  body: (rule: Omit<R, 'version' | 'last_updated'>) => B, adopted: string[], missing: string[],
): { description?: string; rules: B[] } | null {
  if (converted === undefined) return null;
  if (current === null || current === undefined) {
    if (converted.sources.length > 0) missing.push(converted.address);
    return null;
  }
  const keys = new Map(converted.sources.map((s) => [s.id, s.key]));
  for (const s of converted.sources) if (!current.rules.some((r) => r.id === s.id)) missing.push(`${converted.address} rule ${s.key}`);
  let changed = false;
  const rules = current.rules.map((r) => {
    const { version: _v, last_updated: _l, ...rest } = r;
    const key = keys.get(r.id);
    const ref = key ?? (r.ref === undefined || r.ref === '' ? undefined : r.id);
    if (ref === r.ref || ref === undefined) return body(rest);
    changed = true;
    if (key !== undefined) adopted.push(`${label} ${r.id} as ${key}`);
    return body({ ...rest, ref });
  });
  return changed ? { ...(current.description !== undefined ? { description: current.description } : {}), rules } : null;
}

/** The writes that adopt the live objects a converted state names. */
export function terraformAdoption(converted: ConvertedManifest, live: LiveZone): TerraformAdoption {
  const adopted: string[] = [];
  const missing: string[] = [];
  const filters = new Map(live.filters.map((f) => [f.id, f]));
  const rules = new Map(live.firewallRules.map((r) => [r.id, r]));
  const writes: AdoptionWrites = { writes: [], phaseWrites: [] };
  for (const f of converted.filters) {
    const found = f.id === undefined ? undefined : filters.get(f.id);
    if (found === undefined) { missing.push(f.address); continue; }
    // A simplified-flow filter cannot be PUT; the planner matches it through its rule.
    if (found.locked === true || found.ref === f.key) continue;
    const { id, ...body } = adoptionFilterBody(found, f.key);
    writes.writes.push({ op: 'filter.update', id, body });
    adopted.push(`filter ${found.id} as ${f.key}`);
  }
  for (const r of converted.firewallRules) {
    const found = r.id === undefined ? undefined : rules.get(r.id);
    if (found === undefined) { missing.push(r.address); continue; }
    if (found.ref === r.key) continue;
    const { id, ...body } = adoptionRuleBody(found, r.key);
    writes.writes.push({ op: 'firewall_rule.update', id, body });
    adopted.push(`firewall rule ${found.id} as ${r.key}`);
  }
  const custom = adoptPhase('custom rule', converted.customRules, live.customEntrypoint, (r): CustomRuleBody => r, adopted, missing);
  if (custom !== null) writes.phaseWrites.push({ phase: 'custom_rules', ruleset: CustomPhase, strategy: 'put', body: custom });
  const rateLimit = adoptPhase('rate limiting rule', converted.rateLimitRules, live.rateLimitEntrypoint, (r) => ({ ...r, ratelimit: r.ratelimit ?? {} }) as RateLimitRuleBody, adopted, missing);
  if (rateLimit !== null) writes.phaseWrites.push({ phase: 'rate_limiting_rules', ruleset: RatelimitPhase, strategy: 'put', body: rateLimit });
  const entrypoint = adoptEntrypoint(converted, live, adopted);
  if (entrypoint !== null) writes.phaseWrites.push({ phase: 'entrypoint', ruleset: ManagedPhase, strategy: 'put', body: entrypoint });
  return { writes, adopted, missing };
}
