/**
 * Checks `managed_rules` against the managed ruleset catalog, so that `validate` and `plan` refuse
 * what the service would refuse at apply time (20201/20202): a ruleset id the catalog does not know,
 * an override of a rule the ruleset does not have, a category (tag) none of its rules carries
 * (`wordpres`), and a `score_threshold` on a rule that has no anomaly score threshold. The catalog is
 * the engine's, seen through the generated `generated/managed-catalog.ts` (`npm run gen`).
 */
import { resolveManagedRuleset } from './catalog.js';
import type { DocPath } from '../errors.js';
import { ManagedCatalog, type ManagedCatalogEntry } from '../generated/managed-catalog.js';
import { closest } from '../suggest.js';
import { isRecord, type Checks } from '../view.js';

/** ", did you mean X?" when a close candidate exists. */
function hint(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates);
  return near === undefined ? '' : `; did you mean "${near}"?`;
}

/** Checks every item's ruleset and overrides against the catalog. */
export function checkManagedCatalog(checks: Checks, data: Record<string, unknown>): void {
  if (!Array.isArray(data.managed_rules)) return;
  data.managed_rules.forEach((item: unknown, i) => {
    const path: DocPath = ['managed_rules', i];
    if (!isRecord(item) || typeof item.ruleset !== 'string' || !checks.isClean([...path, 'ruleset'])) return;
    const entry = ManagedCatalog[resolveManagedRuleset(item.ruleset)];
    if (entry === undefined) {
      const known = Object.entries(ManagedCatalog).map(([id, e]) => `${e.alias} (${id})`).join(', ');
      checks.report([...path, 'ruleset'], `ruleset ${item.ruleset} is not a managed ruleset of the catalog; known: ${known}`, 'value');
      return;
    }
    const overrides = isRecord(item.overrides) ? item.overrides : {};
    checkCategories(checks, [...path, 'overrides', 'categories'], overrides.categories, entry);
    checkRules(checks, [...path, 'overrides', 'rules'], overrides.rules, entry);
  });
}

function checkCategories(checks: Checks, path: DocPath, list: unknown, entry: ManagedCatalogEntry): void {
  if (!Array.isArray(list)) return;
  list.forEach((c: unknown, j) => {
    const at = [...path, j, 'category'];
    if (!isRecord(c) || typeof c.category !== 'string' || !checks.isClean(at)) return;
    if (!entry.categories.includes(c.category)) {
      checks.report(at, `no rule of ${entry.name} has the category (tag) "${c.category}"${hint(c.category, entry.categories)}`, 'value');
    }
  });
}

function checkRules(checks: Checks, path: DocPath, list: unknown, entry: ManagedCatalogEntry): void {
  if (!Array.isArray(list)) return;
  list.forEach((r: unknown, j) => {
    const at = [...path, j, 'id'];
    if (!isRecord(r) || typeof r.id !== 'string' || !checks.isClean(at)) return;
    if (!entry.rules.includes(r.id)) {
      checks.report(at, `${entry.name} has no rule ${r.id}${hint(r.id, entry.rules)}`, 'value');
    } else if (r.score_threshold !== undefined && !entry.scoreThresholdRules.includes(r.id)) {
      checks.report([...path, j, 'score_threshold'], `rule ${r.id} of ${entry.name} has no anomaly score threshold; only ${entry.scoreThresholdRules.join(', ') || 'no rule of this ruleset'} takes score_threshold`);
    }
  });
}
