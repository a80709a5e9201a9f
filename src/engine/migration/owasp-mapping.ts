/**
 * The OWASP migration mapping of seed 002: how the previous OWASP package's sensitivity and action
 * mode become the new OWASP Core Ruleset's paranoia level, score threshold and action.
 *
 * | Old sensitivity | Paranoia level | Score threshold      |
 * |-----------------|----------------|----------------------|
 * | high            | PL2            | Medium - 40 or higher |
 * | medium          | PL1            | High - 25 or higher   |
 * | low             | PL1            | Medium - 40 or higher |
 * | default         | PL2            | Medium - 40 or higher |
 *
 * "Default" is a package whose sensitivity was never set (the API shows `high` for it). Action: a
 * direct mapping, except `simulate`, which becomes `log`. `off` (the package disabled) has no row:
 * the config then deploys the OWASP ruleset disabled, with the default row's settings.
 */
import { OwaspScoreThresholds, OwaspThresholdRuleId, type ParanoiaLevel } from '../catalog/index.js';

/** A sensitivity with a row in the mapping table. */
export type MappedSensitivity = 'high' | 'medium' | 'low' | 'default';

/** The new OWASP settings one row gives. */
export interface OwaspSettings {
  paranoia_level: ParanoiaLevel;
  threshold_name: keyof typeof OwaspScoreThresholds;
  score_threshold: number;
}

/** The seed's table, row by row. */
export const OwaspSensitivityMapping: Readonly<Record<MappedSensitivity, OwaspSettings>> = {
  high: { paranoia_level: 2, threshold_name: 'medium', score_threshold: OwaspScoreThresholds.medium },
  medium: { paranoia_level: 1, threshold_name: 'high', score_threshold: OwaspScoreThresholds.high },
  low: { paranoia_level: 1, threshold_name: 'medium', score_threshold: OwaspScoreThresholds.medium },
  default: { paranoia_level: 2, threshold_name: 'medium', score_threshold: OwaspScoreThresholds.medium },
};

/** The previous OWASP package's action modes and their new actions (simulate becomes log). */
export const OwaspActionMapping = { simulate: 'log', block: 'block', challenge: 'challenge' } as const;

/** The new OWASP settings of an old sensitivity (`null` = never set = the `default` row). */
export function mapOwaspSensitivity(sensitivity: MappedSensitivity | null): OwaspSettings {
  return OwaspSensitivityMapping[sensitivity ?? 'default'];
}

/** The new action of an old action mode (`null` = never set = the package default, challenge). */
export function mapOwaspActionMode(mode: keyof typeof OwaspActionMapping | null): string {
  return OwaspActionMapping[mode ?? 'challenge'];
}

/** The category overrides that set a paranoia level: every higher `paranoia-level-N` disabled. */
export function paranoiaLevelOverrides(level: ParanoiaLevel): { category: string; enabled: false }[] {
  const out: { category: string; enabled: false }[] = [];
  for (let pl = level + 1; pl <= 4; pl++) out.push({ category: `paranoia-level-${pl}`, enabled: false });
  return out;
}

/** The overrides of the new OWASP ruleset for old settings: PL categories and the 949110 rule. */
export function owaspOverrides(settings: OwaspSettings, action: string): Record<string, unknown> {
  return {
    categories: paranoiaLevelOverrides(settings.paranoia_level),
    rules: [{ id: OwaspThresholdRuleId, score_threshold: settings.score_threshold, action }],
  };
}
