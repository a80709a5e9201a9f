/**
 * The previous WAF's packages, groups and rules APIs (reference §5): list, get and PATCH of each.
 * A package PATCH (`sensitivity`, `action_mode`) works on anomaly packages only (1027 otherwise); a
 * group PATCH takes `mode` `on`/`off`; a rule PATCH takes a `mode` within the rule's
 * `allowed_modes`. Every operation first checks that the zone still has its previous WAF.
 */
import { ApiError } from '../api-errors.js';
import { BodyReader, Problems, requireObject, quote } from '../body-reader.js';
import {
  PreviousWafPackages,
  allowedModes,
  findGroup,
  findLegacyRule,
  findPackage,
  type LegacyGroup,
  type LegacyPackage,
  type LegacyRule,
} from '../catalog/index.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import type { ApiResponse } from '../types.js';
import { PreviousWafErrors, RuleModeCodes } from './constants.js';
import { requirePreviousWaf } from './guard.js';
import { contains, legacyList } from './list-query.js';
import { ActionModes, Sensitivities, type PreviousWafSettings } from './model.js';
import { loadSettings, savePackage, saveGroupMode, saveRuleMode } from './store.js';
import { groupView, packageView, wafRuleView } from './views.js';

const PACKAGES = '/zones/:zone_id/firewall/waf/packages';

/** Routes of the packages, groups and rules APIs. */
export const packageRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: PACKAGES, handler: listPackages },
  { method: 'GET', pattern: `${PACKAGES}/:package_id`, handler: (ctx) => ok(packageView(mustPackage(ctx), settingsOf(ctx), ctx.zone.id)) },
  { method: 'PATCH', pattern: `${PACKAGES}/:package_id`, handler: patchPackage },
  { method: 'GET', pattern: `${PACKAGES}/:package_id/groups`, handler: listGroups },
  { method: 'GET', pattern: `${PACKAGES}/:package_id/groups/:group_id`, handler: getGroup },
  { method: 'PATCH', pattern: `${PACKAGES}/:package_id/groups/:group_id`, handler: patchGroup },
  { method: 'GET', pattern: `${PACKAGES}/:package_id/rules`, handler: listRules },
  { method: 'GET', pattern: `${PACKAGES}/:package_id/rules/:rule_id`, handler: getRule },
  { method: 'PATCH', pattern: `${PACKAGES}/:package_id/rules/:rule_id`, handler: patchRule },
];

function settingsOf(ctx: ZoneRequestContext): PreviousWafSettings {
  requirePreviousWaf(ctx);
  return loadSettings(ctx.sql);
}

function notFound(kind: keyof typeof PreviousWafErrors, message: string): ApiError {
  return ApiError.from(PreviousWafErrors[kind], message);
}

function mustPackage(ctx: ZoneRequestContext): LegacyPackage {
  requirePreviousWaf(ctx);
  const pkg = findPackage(ctx.params.package_id!);
  if (pkg === undefined || pkg.id !== ctx.params.package_id) throw notFound('packageNotFound', `the zone has no WAF package ${ctx.params.package_id}`);
  return pkg;
}

function mustGroup(ctx: ZoneRequestContext, pkg: LegacyPackage): LegacyGroup {
  const group = findGroup(pkg, ctx.params.group_id!);
  if (group === undefined) throw notFound('groupNotFound', `package ${pkg.name} has no WAF rule group ${ctx.params.group_id}`);
  return group;
}

function mustRule(ctx: ZoneRequestContext, pkg: LegacyPackage): { group: LegacyGroup; rule: LegacyRule } {
  const located = findLegacyRule(pkg, ctx.params.rule_id!);
  if (located === undefined) throw notFound('ruleNotFound', `package ${pkg.name} has no WAF rule ${ctx.params.rule_id}`);
  return located;
}

function listPackages(ctx: ZoneRequestContext): ApiResponse {
  const s = settingsOf(ctx);
  return legacyList(PreviousWafPackages.map((p) => packageView(p, s, ctx.zone.id)), ctx.query, {
    filters: { name: (p, v) => contains(p.name as string, v) },
    orders: { name: (p) => p.name as string },
  });
}

function patchPackage(ctx: ZoneRequestContext): ApiResponse {
  const pkg = mustPackage(ctx);
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'a package patch'), '', problems);
  r.allowOnly(['sensitivity', 'action_mode']);
  const sensitivity = r.oneOf('sensitivity', Sensitivities);
  const actionMode = r.oneOf('action_mode', ActionModes);
  if (!r.has('sensitivity') && !r.has('action_mode')) problems.add('/', 'give sensitivity and/or action_mode');
  problems.throwIfAny();
  if (pkg.detection_mode !== 'anomaly') {
    throw ApiError.from(PreviousWafErrors.notAnomalyPackage, 'Only anomaly WAF packages can have their package attributes updated');
  }
  savePackage(ctx.sql, pkg.id, { ...(sensitivity ? { sensitivity } : {}), ...(actionMode ? { action_mode: actionMode } : {}) });
  return ok(packageView(pkg, loadSettings(ctx.sql), ctx.zone.id));
}

function listGroups(ctx: ZoneRequestContext): ApiResponse {
  const pkg = mustPackage(ctx);
  const s = loadSettings(ctx.sql);
  return legacyList(pkg.groups.map((g) => groupView(pkg, g, s)), ctx.query, {
    filters: {
      mode: (g, v) => g.mode === v,
      name: (g, v) => contains(g.name as string, v),
      rules_count: (g, v) => String(g.rules_count) === v,
    },
    orders: { mode: (g) => g.mode as string, rules_count: (g) => g.rules_count as number, name: (g) => g.name as string },
  });
}

function getGroup(ctx: ZoneRequestContext): ApiResponse {
  const pkg = mustPackage(ctx);
  return ok(groupView(pkg, mustGroup(ctx, pkg), loadSettings(ctx.sql)));
}

function patchGroup(ctx: ZoneRequestContext): ApiResponse {
  const pkg = mustPackage(ctx);
  const group = mustGroup(ctx, pkg);
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'a group patch'), '', problems);
  r.allowOnly(['mode']);
  const mode = r.oneOf('mode', ['on', 'off'] as const, { required: true });
  problems.throwIfAny();
  saveGroupMode(ctx.sql, pkg.id, group.id, mode!);
  return ok(groupView(pkg, group, loadSettings(ctx.sql)));
}

function listRules(ctx: ZoneRequestContext): ApiResponse {
  const pkg = mustPackage(ctx);
  const s = loadSettings(ctx.sql);
  const views = pkg.groups.flatMap((g) => g.rules.map((r) => wafRuleView(pkg, g, r, s)));
  return legacyList(views, ctx.query, {
    filters: {
      mode: (r, v) => r.mode === (RuleModeCodes[v] ?? v),
      group_id: (r, v) => (r.group as { id: string }).id === v,
      description: (r, v) => contains(r.description as string, v),
      priority: (r, v) => r.priority === v,
    },
    orders: { priority: (r) => Number(r.priority), group_id: (r) => (r.group as { id: string }).id, description: (r) => r.description as string },
  });
}

function getRule(ctx: ZoneRequestContext): ApiResponse {
  const pkg = mustPackage(ctx);
  const { group, rule } = mustRule(ctx, pkg);
  return ok(wafRuleView(pkg, group, rule, loadSettings(ctx.sql)));
}

function patchRule(ctx: ZoneRequestContext): ApiResponse {
  const pkg = mustPackage(ctx);
  const { group, rule } = mustRule(ctx, pkg);
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'a rule patch'), '', problems);
  r.allowOnly(['mode']);
  const allowed = allowedModes(pkg, rule);
  const mode = r.string('mode', { required: true });
  if (mode !== undefined && !allowed.includes(mode)) {
    problems.add('/mode', `mode ${quote(mode)} is not allowed for WAF rule ${rule.id}; its allowed modes are ${allowed.join(', ')}`);
  }
  problems.throwIfAny();
  saveRuleMode(ctx.sql, pkg.id, rule.id, mode!);
  return ok(wafRuleView(pkg, group, rule, loadSettings(ctx.sql)));
}
