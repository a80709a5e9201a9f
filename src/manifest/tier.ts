/**
 * What a zone's plan tier allows, checked against a desired zone once the tier is known (from the
 * manifest's `plan:` offline, or from the provider at plan time; the provider's wins). The rules
 * are the service's (reference/api-facts.md §3, §4, §5, §6):
 *
 * | feature                               | needs                          |
 * |---------------------------------------|--------------------------------|
 * | firewall rule action `log`            | enterprise                     |
 * | the `matches` operator in a filter    | business or enterprise         |
 * | active (not paused) firewall rules    | free 5, pro 20, business 100, enterprise 1000 |
 * | managed rulesets other than `free`    | pro or higher                  |
 * | `previous_waf` settings               | pro or higher                  |
 * | custom rules (enabled or not)         | free 5, pro 20, business 100, enterprise 1000 |
 * | custom rule action `log`              | enterprise                     |
 * | `matches` in a custom rule            | business or enterprise         |
 * | a custom block `response`             | pro or higher                  |
 * | `waf_migration: validation`           | enterprise                     |
 * | Page Rules (active or disabled)       | free 3, pro 20, business 50, enterprise 125 |
 *
 * These count the manifest alone; `src/plan/quota.ts` adds what the live zone keeps.
 */
import { parse, inspect } from '../expr/index.js';
import { FreeRulesetId } from './managed-rules/catalog.js';
import type { DesiredFilter, DesiredFirewallRule, DesiredPlanTier, DesiredZone, SourceLocation } from './desired.js';
import { formatPath, type DocPath, type ManifestIssue } from './errors.js';
import { ActiveRuleQuota, CustomRuleQuota, PageRuleQuota } from './limits.js';

const rank: Record<DesiredPlanTier, number> = { free: 0, pro: 1, business: 2, enterprise: 3 };

/**
 * Whether a canonical expression uses `matches`, by expression: the expression check records what
 * it found when it parsed the manifest (`recordMatches`), so checking a zone parses nothing again.
 */
const matchesCache = new Map<string, boolean>();

/** Records whether `canonical` (of the default phase) uses `matches`, as the expression check found. */
export function recordMatches(canonical: string, uses: boolean): void {
  if (matchesCache.size > 10_000) matchesCache.clear();
  matchesCache.set(canonical, uses);
}

function parsedUsesMatches(expression: string): boolean {
  try {
    return inspect(parse(expression)).operators.has('matches');
  } catch {
    return false; // the manifest checks report bad expressions; nothing to add here
  }
}

function usesMatches(expression: string): boolean {
  const known = matchesCache.get(expression);
  if (known !== undefined) return known;
  const uses = parsedUsesMatches(expression);
  recordMatches(expression, uses);
  return uses;
}

function issueAt(file: string, location: SourceLocation | undefined, path: DocPath, message: string): ManifestIssue {
  return { file, line: location?.line ?? 0, column: location?.column ?? 0, path: formatPath(path), message };
}

function filterPath(filter: DesiredFilter): DocPath {
  return filter.inline ? ['firewall_rules', filter.ref, 'filter', 'expression'] : ['filters', filter.ref, 'expression'];
}

/**
 * Issues for what the zone's plan does not allow. `zone.plan` undefined (tier unknown): no issues.
 * @example checkAgainstZone(desired, { plan: 'pro' }) // [{ path: 'firewall_rules.audit.action', message: 'log needs ...' }]
 */
export function checkAgainstZone(desired: DesiredZone, zone: { plan?: DesiredPlanTier }): ManifestIssue[] {
  const tier = zone.plan;
  if (tier === undefined) return [];
  const on = `(the zone is on the ${tier} plan)`;
  const issues: ManifestIssue[] = [];
  const add = (location: SourceLocation | undefined, path: DocPath, message: string): void => {
    issues.push(issueAt(desired.file, location, path, message));
  };
  // Index loops, and the active rules counted rather than listed: a zone is checked at validation
  // and again at plan time, and its 1,000 rules are walked mostly before V8 optimises the loop.
  const rules = desired.firewallRules;
  const quota = ActiveRuleQuota[tier];
  let active = 0;
  let firstOver: DesiredFirewallRule | undefined;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    if (rule.action === 'log' && tier !== 'enterprise') {
      add(rule.fieldLocations?.action ?? rule.location, ['firewall_rules', rule.ref, 'action'], `log needs an Enterprise plan ${on}`);
    }
    if (!rule.paused && active++ === quota) firstOver = rule;
  }
  if (rank[tier] < rank.business) {
    for (let i = 0; i < desired.filters.length; i++) {
      const filter = desired.filters[i];
      if (!usesMatches(filter.expression)) continue;
      add(filter.fieldLocations?.matches ?? filter.fieldLocations?.expression ?? filter.location, filterPath(filter),
        `the matches operator needs a Business or Enterprise plan ${on}`);
    }
  }
  if (firstOver !== undefined) {
    add(firstOver.location, ['firewall_rules', firstOver.ref], `the ${tier} plan allows ${quota} active firewall rules and this is `
      + `active rule ${quota + 1} of ${active}: pause or remove ${active - quota}, or use a higher plan`);
  }
  issues.push(...customRuleIssues(desired, tier, on));
  const pages = desired.pageRules ?? [];
  if (pages.length > PageRuleQuota[tier]) {
    const first = pages[PageRuleQuota[tier]]!;
    add(first.location, ['page_rules', first.key], `the ${tier} plan allows ${PageRuleQuota[tier]} Page Rules and this is rule ${PageRuleQuota[tier] + 1} of ${pages.length} `
      + `(disabled ones count too): remove ${pages.length - PageRuleQuota[tier]}, or use a higher plan`);
  }
  if (tier === 'free') {
    for (const [i, m] of (desired.managedRules ?? []).entries()) {
      if (m.rulesetId === FreeRulesetId) continue;
      add(m.fieldLocations?.ruleset ?? m.location, ['managed_rules', i, 'ruleset'], `this managed ruleset needs a Pro plan or higher ${on}; `
        + 'a free zone can deploy only the free ruleset');
    }
    if (desired.previousWaf !== undefined) add(desired.previousWaf.location, ['previous_waf'], `the previous WAF needs a Pro plan or higher ${on}`);
  }
  if (desired.wafMigration === 'validation' && tier !== 'enterprise') {
    add(desired.locations.waf_migration, ['waf_migration'], `validation mode needs an Enterprise plan ${on}; `
      + 'use waf_migration: pending to migrate in one step');
  }
  return issues;
}

/** What the tier does not allow in `custom_rules`. */
function customRuleIssues(desired: DesiredZone, tier: DesiredPlanTier, on: string): ManifestIssue[] {
  const rules = desired.customRules ?? [];
  const issues: ManifestIssue[] = [];
  const add = (location: SourceLocation | undefined, path: DocPath, message: string): void => {
    issues.push(issueAt(desired.file, location, path, message));
  };
  for (const r of rules) {
    const at = (field: string) => r.fieldLocations?.[field] ?? r.location;
    if (r.action === 'log' && tier !== 'enterprise') add(at('action'), ['custom_rules', r.ref, 'action'], `log needs an Enterprise plan ${on}`);
    if (rank[tier] < rank.business && usesMatches(r.expression)) {
      add(r.fieldLocations?.matches ?? at('expression'), ['custom_rules', r.ref, 'expression'], `the matches operator needs a Business or Enterprise plan ${on}`);
    }
    if (tier === 'free' && r.actionParameters?.response !== undefined) {
      add(at('response'), ['custom_rules', r.ref, 'action_parameters', 'response'], `a custom block response needs a Pro plan or higher ${on}`);
    }
  }
  const quota = CustomRuleQuota[tier];
  if (rules.length > quota) {
    const first = rules[quota]!;
    add(first.location, ['custom_rules', first.ref], `the ${tier} plan allows ${quota} custom rules and this is rule ${quota + 1} of ${rules.length} `
      + `(disabled rules count too): remove ${rules.length - quota}, or use a higher plan`);
  }
  return issues;
}
