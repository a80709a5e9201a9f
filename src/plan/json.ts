/**
 * The versioned JSON form of plans (`schemas/plan.schema.json` documents it), after Terraform's
 * `command/jsonplan`: snake_case keys, a `format_version`, request bodies in the v4 API's shapes.
 * `zonewall plan --json` prints a `PlanJson`; `plan --out` saves the same document, which
 * `apply FILE` reads back with `planFromJson`. Pure conversions only; reading files is apply's job.
 */
import type { Action } from './action.js';
import type { Attributes, ChangeReason, Change, ResourceKind } from './change.js';
import type { Finding } from './finding.js';
import type { EntrypointBody, FilterBody, LiveSection, PageRuleBody, PlanTier } from './live.js';
import type { PhaseName } from './order.js';
import { hasErrors, type Plan, type PlanSummary, type UnmanagedObject } from './plan.js';
import type { CustomRuleOp, CustomRulesWrite, FirewallRuleWriteBody, Write } from './write.js';

/** The format version written; readers accept any `1.x`. */
export const PlanFormatVersion = '1.1';

/** One write in JSON. */
export interface WriteJson {
  op: Write['op'];
  id?: string;
  body?: FilterBody | FirewallRuleWriteBody | PageRuleBody | { sensitivity?: string; action_mode?: string };
  destroy_first?: boolean;
  delete_filter_if_unused?: boolean;
  package_id?: string;
  group_id?: string;
  rule_id?: string;
  mode?: string;
}

/** The custom phase's writes in JSON (format 1.1; absent in 1.0 plans, which have none). */
export type CustomRulesJson =
  | { strategy: 'rules'; ruleset_id: string; ops: CustomRuleOp[] }
  | { strategy: 'put'; body: Extract<CustomRulesWrite, { strategy: 'put' }>['body'] };

/** One change in JSON. */
export interface ChangeJson {
  kind: ResourceKind;
  action: Action;
  reason: ChangeReason;
  ref: string;
  id?: string;
  before: Attributes | null;
  after: Attributes | null;
  changed: string[];
  writes: WriteJson[];
  note?: string;
}

/** The plan of one zone in JSON. */
export interface ZonePlanJson {
  zone: { id: string; name: string; plan?: PlanTier };
  manifest: { file: string; zone: string };
  fingerprint: string;
  settings: { prune: boolean; delete_threshold: number; min_objects: number; reads?: LiveSection[] };
  summary: PlanSummary;
  changes: ChangeJson[];
  entrypoint: { body: EntrypointBody; waf_migration?: 'validation' | 'pending' } | null;
  custom_rules?: CustomRulesJson | null;
  unmanaged: UnmanagedObject[];
  findings: Finding[];
  calls: {
    requests: number;
    phases: { phase: PhaseName; objects: number; requests: number }[];
    batch_size: number;
    budget: { requests: number; window_seconds: number };
    wait_seconds: number;
    reads?: number;
  };
  applicable: boolean;
  safe: boolean;
}

/** A zone that could not be planned. */
export interface PlanErrorJson {
  file?: string;
  zone?: string;
  code: string;
  message: string;
}

/** The plan document: every zone of one run. */
export interface PlanJson {
  format_version: string;
  kind: 'zonewall.plan';
  zonewall_version?: string;
  provider?: { kind: 'engine' | 'http'; description: string };
  zones: ZonePlanJson[];
  errors: PlanErrorJson[];
  summary: PlanSummary;
}

function writeToJson(w: Write): WriteJson {
  switch (w.op) {
    case 'filter.create': case 'firewall_rule.create': return { op: w.op, body: w.body };
    case 'filter.update': case 'firewall_rule.update': return { op: w.op, id: w.id, body: w.body };
    case 'filter.delete': return { op: w.op, id: w.id };
    case 'firewall_rule.delete': return { op: w.op, id: w.id, ...(w.destroyFirst === true ? { destroy_first: true } : {}), ...(w.deleteFilterIfUnused === true ? { delete_filter_if_unused: true } : {}) };
    case 'waf_package.patch': return { op: w.op, package_id: w.packageId, body: w.body };
    case 'waf_group.patch': return { op: w.op, package_id: w.packageId, group_id: w.groupId, mode: w.mode };
    case 'waf_rule.patch': return { op: w.op, package_id: w.packageId, rule_id: w.ruleId, mode: w.mode };
    case 'page_rule.create': return { op: w.op, body: w.body };
    case 'page_rule.update': return { op: w.op, id: w.id, body: w.body };
    case 'page_rule.delete': return { op: w.op, id: w.id };
  }
}

function need<T>(v: T | undefined, what: string, op: string): T {
  if (v === undefined) throw new TypeError(`write ${op} has no ${what}`);
  return v;
}

function writeFromJson(w: WriteJson): Write {
  const id = () => need(w.id, 'id', w.op);
  const body = () => need(w.body, 'body', w.op);
  switch (w.op) {
    case 'filter.create': return { op: w.op, body: body() as FilterBody };
    case 'filter.update': return { op: w.op, id: id(), body: body() as FilterBody };
    case 'filter.delete': return { op: w.op, id: id() };
    case 'firewall_rule.create': return { op: w.op, body: body() as FirewallRuleWriteBody };
    case 'firewall_rule.update': return { op: w.op, id: id(), body: body() as FirewallRuleWriteBody };
    case 'firewall_rule.delete': return { op: w.op, id: id(), ...(w.destroy_first === true ? { destroyFirst: true } : {}), ...(w.delete_filter_if_unused === true ? { deleteFilterIfUnused: true } : {}) };
    case 'waf_package.patch': return { op: w.op, packageId: need(w.package_id, 'package_id', w.op), body: body() as { sensitivity?: string } };
    case 'waf_group.patch': return { op: w.op, packageId: need(w.package_id, 'package_id', w.op), groupId: need(w.group_id, 'group_id', w.op), mode: need(w.mode, 'mode', w.op) as 'on' | 'off' };
    case 'waf_rule.patch': return { op: w.op, packageId: need(w.package_id, 'package_id', w.op), ruleId: need(w.rule_id, 'rule_id', w.op), mode: need(w.mode, 'mode', w.op) };
    case 'page_rule.create': return { op: w.op, body: body() as PageRuleBody };
    case 'page_rule.update': return { op: w.op, id: id(), body: body() as PageRuleBody };
    case 'page_rule.delete': return { op: w.op, id: id() };
  }
}

function changeToJson(c: Change): ChangeJson {
  return {
    kind: c.kind, action: c.action, reason: c.reason, ref: c.ref, ...(c.id !== undefined ? { id: c.id } : {}),
    before: c.before, after: c.after, changed: c.changed, writes: c.writes.map(writeToJson),
    ...(c.note !== undefined ? { note: c.note } : {}),
  };
}

function changeFromJson(c: ChangeJson): Change {
  return {
    kind: c.kind, action: c.action, reason: c.reason, ref: c.ref, ...(c.id !== undefined ? { id: c.id } : {}),
    before: c.before, after: c.after, changed: c.changed, writes: c.writes.map(writeFromJson),
    ...(c.note !== undefined ? { note: c.note } : {}),
  };
}

function customToJson(w: CustomRulesWrite | null): CustomRulesJson | null {
  if (w === null) return null;
  return w.strategy === 'put' ? { strategy: 'put', body: w.body } : { strategy: 'rules', ruleset_id: w.rulesetId, ops: w.ops };
}

function customFromJson(w: CustomRulesJson | null): CustomRulesWrite | null {
  if (w === null) return null;
  return w.strategy === 'put' ? { strategy: 'put', body: w.body } : { strategy: 'rules', rulesetId: w.ruleset_id, ops: w.ops };
}

/** The JSON form of one zone's plan. */
export function planToJson(plan: Plan): ZonePlanJson {
  const e = plan.entrypoint;
  return {
    zone: plan.zone,
    manifest: plan.manifest,
    fingerprint: plan.fingerprint,
    settings: { prune: plan.settings.prune, delete_threshold: plan.settings.deleteThreshold, min_objects: plan.settings.minObjects, ...(plan.settings.reads !== undefined ? { reads: plan.settings.reads } : {}) },
    summary: plan.summary,
    changes: plan.changes.map(changeToJson),
    entrypoint: e === null ? null : { body: e.body, ...(e.wafMigration !== undefined ? { waf_migration: e.wafMigration } : {}) },
    custom_rules: customToJson(plan.customRules),
    unmanaged: plan.unmanaged,
    findings: plan.findings,
    calls: {
      requests: plan.calls.requests,
      phases: plan.calls.phases,
      batch_size: plan.calls.batchSize,
      budget: { requests: plan.calls.budget.requests, window_seconds: plan.calls.budget.windowSeconds },
      wait_seconds: plan.calls.waitSeconds,
      ...(plan.calls.reads !== undefined ? { reads: plan.calls.reads } : {}),
    },
    applicable: !hasErrors(plan),
    safe: !plan.findings.some((f) => f.level === 'danger'),
  };
}

/** A Plan back from its JSON form (the document must already be schema-valid). */
export function planFromJson(json: ZonePlanJson): Plan {
  const e = json.entrypoint;
  return {
    zone: json.zone,
    manifest: json.manifest,
    changes: json.changes.map(changeFromJson),
    entrypoint: e === null ? null : { body: e.body, ...(e.waf_migration !== undefined ? { wafMigration: e.waf_migration } : {}) },
    customRules: customFromJson(json.custom_rules ?? null),
    unmanaged: json.unmanaged,
    findings: json.findings,
    calls: {
      requests: json.calls.requests,
      phases: json.calls.phases,
      batchSize: json.calls.batch_size,
      budget: { requests: json.calls.budget.requests, windowSeconds: json.calls.budget.window_seconds },
      waitSeconds: json.calls.wait_seconds,
      ...(json.calls.reads !== undefined ? { reads: json.calls.reads } : {}),
    },
    fingerprint: json.fingerprint,
    settings: { prune: json.settings.prune, deleteThreshold: json.settings.delete_threshold, minObjects: json.settings.min_objects, ...(json.settings.reads !== undefined ? { reads: json.settings.reads } : {}) },
    summary: json.summary,
  };
}

/** Totals of several plan summaries. */
export function addSummaries(summaries: readonly PlanSummary[]): PlanSummary {
  const total: PlanSummary = { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0 };
  for (const s of summaries) {
    total.add += s.add; total.change += s.change; total.replace += s.replace; total.destroy += s.destroy; total.unchanged += s.unchanged;
  }
  return total;
}

/** The plan document of a run. */
export function planDocument(
  plans: readonly Plan[],
  errors: readonly PlanErrorJson[],
  meta: { zonewallVersion?: string; provider?: PlanJson['provider'] } = {},
): PlanJson {
  return {
    format_version: PlanFormatVersion,
    kind: 'zonewall.plan',
    ...(meta.zonewallVersion !== undefined ? { zonewall_version: meta.zonewallVersion } : {}),
    ...(meta.provider !== undefined ? { provider: meta.provider } : {}),
    zones: plans.map(planToJson),
    errors: [...errors],
    summary: addSummaries(plans.map((p) => p.summary)),
  };
}
