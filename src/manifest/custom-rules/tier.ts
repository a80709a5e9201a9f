/**
 * What a zone's plan tier allows of WAF custom rules (reference/custom-rules.md §2):
 *
 * | feature                               | needs                                          |
 * |---------------------------------------|------------------------------------------------|
 * | custom rules (enabled or not)         | free 5, pro 20, business 100, enterprise 1000  |
 * | custom rule action `log`              | enterprise                                     |
 * | `matches` in a custom rule            | business or enterprise                         |
 * | a custom block `response`             | pro or higher                                  |
 * | a plan-gated field (`PlanGatedFields`) | its tier: attack scores Enterprise, subdivisions Business, ... |
 *
 * The plan-gated fields are the engine's table (`src/api`), so `validate --plan` and `plan` refuse
 * what the service refuses (20204), at the rule's expression.
 */
import { CustomRuleQuota, PlanGatedFields } from '../../api/index.js';
import { inspect, parse } from '../../expr/index.js';
import type { DesiredPlanTier, DesiredZone } from '../desired.js';
import type { TierReport } from '../kind.js';
import { tierAtLeast, usesMatches } from '../plan-tier.js';

/**
 * WAF custom rules allowed per plan tier: every rule of the `http_request_firewall_custom` phase,
 * enabled or not (reference/custom-rules.md §2.6; Pro+ has 40, zonewall knows the four tiers only).
 */
export { CustomRuleQuota };

/** Reports the custom rules the tier does not allow. */
export function checkCustomTier(desired: DesiredZone, { tier, on, add }: TierReport): void {
  const rules = desired.customRules ?? [];
  for (const r of rules) {
    const at = (field: string) => r.fieldLocations?.[field] ?? r.location;
    if (r.action === 'log' && tier !== 'enterprise') add(at('action'), ['custom_rules', r.ref, 'action'], `log needs an Enterprise plan ${on}`);
    if (!tierAtLeast(tier, 'business') && usesMatches(r.expression)) {
      add(r.fieldLocations?.matches ?? at('expression'), ['custom_rules', r.ref, 'expression'], `the matches operator needs a Business or Enterprise plan ${on}`);
    }
    for (const gated of gatedFields(r.expression, tier)) {
      add(at('expression'), ['custom_rules', r.ref, 'expression'], `${gated.field} (${gated.what}) needs ${article(gated.tier)} ${capital(gated.tier)} plan or higher ${on}`);
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
}

const Gated = PlanGatedFields.map((g) => ({ ...g, re: new RegExp(g.pattern) }));
/** A cheap look at the source first: most expressions name none of these, and are not parsed again. */
const MaybeGated = /cf\.waf\.score|subdivision_|is_in_european_union|cf\.bot_management\.|http\.request\.body\./;

/** The plan-gated fields `expression` uses that `tier` lacks, in name order (none for an expression that does not parse: reported elsewhere). */
function gatedFields(expression: string, tier: DesiredPlanTier): { field: string; tier: string; what: string }[] {
  if (!MaybeGated.test(expression)) return [];
  let fields: string[];
  try {
    fields = [...inspect(parse(expression)).fields].sort();
  } catch {
    return [];
  }
  const out: { field: string; tier: string; what: string }[] = [];
  for (const field of fields) {
    const g = Gated.find((x) => x.re.test(field));
    if (g !== undefined && !tierAtLeast(tier, g.tier)) out.push({ field, tier: g.tier, what: g.what });
  }
  return out;
}

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const article = (tier: string): string => (tier === 'enterprise' ? 'an' : 'a');
