/**
 * OWASP Core Ruleset settings as overrides, both ways: paranoia level, score threshold and action
 * become category overrides (`paranoia-level-N` disabled above the level) and a rule override of
 * rule 949110; and overrides read back into those settings plus whatever else they hold. The
 * manifest's `paranoia_level`/`score_threshold`/`action` are sugar for exactly these overrides.
 */
import type { ManagedOverrides } from '../plan/index.js';
import { OwaspScoreDefaults, OwaspScoreRuleId, OwaspThresholds, ParanoiaCategories } from './constants.js';
import type { OwaspThresholdLevel } from './constants.js';

/** OWASP settings; undefined fields are left at the ruleset's defaults. */
export interface OwaspSettings {
  paranoiaLevel?: number;
  scoreThreshold?: number;
  action?: string;
}

/** OWASP settings read from overrides, and the overrides that are not part of them. */
export interface OwaspReading {
  settings: OwaspSettings;
  /** Categories and rules other than the paranoia levels and rule 949110, and ruleset-level fields. */
  rest: ManagedOverrides;
}

/** The category overrides that set paranoia level `level` (every higher level disabled). */
export function paranoiaCategories(level: number): { category: string; enabled: boolean }[] {
  return ParanoiaCategories.slice(level).map((category) => ({ category, enabled: false }));
}

/** Builds the overrides that express OWASP settings (categories first, then the 949110 override). */
export function owaspOverrides(settings: OwaspSettings): ManagedOverrides {
  const overrides: ManagedOverrides = {};
  if (settings.paranoiaLevel !== undefined && settings.paranoiaLevel < ParanoiaCategories.length) {
    overrides.categories = paranoiaCategories(settings.paranoiaLevel);
  }
  if (settings.scoreThreshold !== undefined || settings.action !== undefined) {
    const rule: { id: string; action?: string; score_threshold?: number } = { id: OwaspScoreRuleId };
    if (settings.action !== undefined) rule.action = settings.action;
    if (settings.scoreThreshold !== undefined) rule.score_threshold = settings.scoreThreshold;
    overrides.rules = [rule];
  }
  return overrides;
}

/**
 * The paranoia level that a set of category overrides expresses: n when exactly the levels above n
 * are disabled (and nothing else is said about paranoia categories); undefined when there are no
 * paranoia overrides or they do not have that shape.
 */
function readParanoiaLevel(categories: NonNullable<ManagedOverrides['categories']>): number | undefined {
  const paranoia = categories.filter((c) => (ParanoiaCategories as readonly string[]).includes(c.category));
  if (paranoia.length === 0) return undefined;
  const level = ParanoiaCategories.length - paranoia.length;
  const expected = paranoiaCategories(level);
  const same = paranoia.every((c, i) => c.category === expected[i].category && c.enabled === false && c.action === undefined);
  return same && level >= 1 ? level : undefined;
}

/** Splits overrides of the OWASP ruleset into OWASP settings and the rest. */
export function readOwaspOverrides(overrides: ManagedOverrides | undefined): OwaspReading {
  const categories = overrides?.categories ?? [];
  const rules = overrides?.rules ?? [];
  const settings: OwaspSettings = {};
  const rest: ManagedOverrides = {};
  if (overrides?.action !== undefined) rest.action = overrides.action;
  if (overrides?.enabled !== undefined) rest.enabled = overrides.enabled;
  const level = readParanoiaLevel(categories);
  if (level !== undefined) settings.paranoiaLevel = level;
  const otherCategories = level === undefined
    ? categories
    : categories.filter((c) => !(ParanoiaCategories as readonly string[]).includes(c.category));
  if (otherCategories.length > 0) rest.categories = otherCategories;
  const otherRules = [];
  for (const rule of rules) {
    // Only a plain 949110 override (action and/or threshold) is sugar; one that also disables it stays explicit.
    if (rule.id === OwaspScoreRuleId && rule.enabled === undefined && (settings.action ?? settings.scoreThreshold) === undefined) {
      if (rule.action !== undefined) settings.action = rule.action;
      if (rule.score_threshold !== undefined) settings.scoreThreshold = rule.score_threshold;
    } else {
      otherRules.push(rule);
    }
  }
  if (otherRules.length > 0) rest.rules = otherRules;
  return { settings, rest };
}

/** The effective OWASP settings of an execute rule's overrides (defaults filled in, for the report). */
export function effectiveOwasp(overrides: ManagedOverrides | undefined): { paranoiaLevel?: number; scoreThreshold: number; action: string } {
  const { settings } = readOwaspOverrides(overrides);
  const score = (overrides?.rules ?? []).find((r) => r.id === OwaspScoreRuleId);
  return {
    paranoiaLevel: settings.paranoiaLevel,
    scoreThreshold: score?.score_threshold ?? OwaspScoreDefaults.scoreThreshold,
    action: score?.action ?? overrides?.action ?? OwaspScoreDefaults.action,
  };
}

/** The named level of a score threshold (`medium` for 40), or the number when it has no name. */
export function thresholdLevel(score: number): OwaspThresholdLevel | number {
  for (const [level, value] of Object.entries(OwaspThresholds)) {
    if (value === score) return level as OwaspThresholdLevel;
  }
  return score;
}

/** "medium (40)" for 40, "33" for 33: how the report names a threshold. */
export function describeThreshold(score: number): string {
  const level = thresholdLevel(score);
  return typeof level === 'string' ? `${level} (${score})` : String(score);
}
