/**
 * The one registration list: every kind the planner manages, in the order their findings and
 * unmanaged objects are reported, and the order of the apply phases they write in. The cores
 * (`diff.ts`, `order.ts`, `calls.ts`, `safety.ts`, `quota.ts`, `reads.ts`, `fingerprint.ts`, apply)
 * reach the kinds only through this file. Adding a kind is a folder and a line here
 * (`docs/architecture.md`).
 */
import type { ResourceKind } from './change.js';
import { customRules } from './custom-rules/index.js';
import { firewall } from './firewall/index.js';
import type { PhaseInfo, PlanKind, ResourcePlacement } from './kind.js';
import type { LiveSection } from './live.js';
import { managedRules } from './managed-rules/index.js';
import { migration } from './migration/index.js';
import { pageRules } from './page-rules/index.js';
import type { PhaseName } from './phase.js';
import { previousWaf } from './previous-waf/index.js';
import { rateLimiting } from './rate-limiting/index.js';
import type { Write } from './write.js';

export * from './firewall/live.js';
export * from './custom-rules/live.js';
export * from './managed-rules/live.js';
export * from './previous-waf/live.js';
export * from './page-rules/live.js';
export * from './migration/live.js';
export * from './rate-limiting/live.js';
export * from './firewall/writes.js';
export * from './previous-waf/writes.js';
export * from './page-rules/writes.js';
export type { CustomRuleOp, CustomRulesWrite } from './custom-rules/writes.js';
export { describePageRule, pageRuleSettings, pageRuleUrl } from './page-rules/diff.js';
export { describeEntrypointRule, describeSkip, isUnmanagedEntrypointRule } from './managed-rules/entrypoint-rules.js';
export type { EntrypointWrite } from './managed-rules/writes.js';
export { compactOverrides, desiredBody, migrationBody, proposalBody, type BodySource, type MigrationBodyInput } from './migration/body.js';
export { adoptionFilterBody, adoptionRuleBody } from './firewall/export.js';

/** Every kind, in report order. */
export const PlanKinds: readonly PlanKind[] = [firewall, customRules, managedRules, previousWaf, pageRules, migration, rateLimiting];

/** Every resource kind, in the kinds' order: the order of changes of one phase. */
export const ResourceKinds: readonly ResourceKind[] = PlanKinds.flatMap((k) => Object.keys(k.resources) as ResourceKind[]);

/**
 * The apply phases, in the order they run: filters before the rules that use them, the rules
 * phases after the firewall rules, deletions last and in reverse (rules, then filters), as
 * Terraform's `transform_destroy_edge.go` reverses destroy edges.
 */
export const PhaseNames: readonly PhaseName[] = [
  'firewall_rules.delete_first',
  'filters.update',
  'filters.create',
  'firewall_rules.update',
  'firewall_rules.create',
  'page_rules',
  'previous_waf',
  'custom_rules',
  'rate_limiting_rules',
  'entrypoint',
  'firewall_rules.delete',
  'filters.delete',
];

/**
 * Every optional live section, in the order a read resolves them (the status first: others depend
 * on it). `migration_config` is read only when named, never as part of "all".
 */
export const LiveSections: readonly LiveSection[] = ['migration', 'entrypoint', 'custom_rules', 'previous_waf', 'page_rules', 'rate_limiting_rules', 'migration_config'];

/** What the cores look up about one resource kind: its kind, its placement and its ranks. */
export interface ResourceInfo extends ResourcePlacement {
  kind: PlanKind;
  /** Place among resource kinds (`ResourceKinds` order): the order of changes within one phase. */
  rank: number;
  keptRank: number;
  deletedRank: number;
}

const phaseIndex = new Map<PhaseName, number>(PhaseNames.map((p, i) => [p, i]));
const phaseInfo = new Map<PhaseName, PhaseInfo>(PlanKinds.flatMap((k) => k.phases.map((p) => [p.name, p] as const)));

function rankOfPhase(name: PhaseName): number {
  const i = phaseIndex.get(name);
  if (i === undefined) throw new Error(`phase ${name} is not in PhaseNames`);
  return i;
}

const resources = new Map<string, ResourceInfo>();
for (const kind of PlanKinds) {
  for (const [name, placement] of Object.entries(kind.resources) as [ResourceKind, ResourcePlacement][]) {
    resources.set(name, { ...placement, kind, rank: ResourceKinds.indexOf(name), keptRank: rankOfPhase(placement.kept), deletedRank: rankOfPhase(placement.deleted) });
  }
}
const opKinds = new Map<string, PlanKind>(PlanKinds.flatMap((k) => k.ops.map((op) => [op, k] as const)));

/** The registration of a resource kind. */
export function resourceOf(kind: ResourceKind): ResourceInfo {
  const r = resources.get(kind);
  if (r === undefined) throw new Error(`resource kind ${kind} is not registered by any kind`);
  return r;
}

/** The kind that owns a write op. */
function kindOfWrite(write: Write): PlanKind {
  const k = opKinds.get(write.op);
  if (k === undefined) throw new Error(`write ${write.op} is not registered by any kind`);
  return k;
}

/** The phase a write runs in. */
export function phaseOf(write: Write): PhaseName {
  return kindOfWrite(write).phaseOf(write);
}

/** The place of a phase in apply order. */
export function phaseRank(name: PhaseName): number {
  return rankOfPhase(name);
}

/** Whether a phase sends one request per object (else batches of the plan's batch size). */
export function perObject(name: PhaseName): boolean {
  return phaseInfo.get(name)?.requests !== 'batch';
}

/** The batch group of a write: writes of one phase in different groups never share a request. */
export function batchGroup(write: Write): number {
  return kindOfWrite(write).batchGroup?.(write) ?? 0;
}
