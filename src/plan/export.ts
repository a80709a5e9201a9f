/**
 * `export`: a manifest from a live zone, as a pure function (values in, values out; the CLI reads
 * the zone and writes the file). Every exported object gets a key: its existing `ref` when that is
 * a valid, unique key, else a readable slug of its description, else `<kind>-<id8>`
 * (`export-keys.ts`). The result lists what was exported under which key, what could not be and
 * why, and the writes that adopt the objects: each live object gets its key as `ref` (one bulk PUT
 * per resource type), so the next plan matches it by ref and shows no changes.
 *
 * Contract with the planner (coordinated with `match-firewall.ts`): a simplified-flow filter cannot
 * be PUT, so it never gets a ref. Export writes it inline under its one rule; the planner matches an
 * inline filter that no ref matches to the live filter its rule uses, and ignores `ref` when
 * comparing a locked filter. A locked filter held by several rules is inline under the first; the
 * others are reported and left out (a manifest cannot share an inline filter).
 *
 * @example
 * const { document, adopted, adoption } = exportManifest(await provider.readZone(zoneId));
 * const text = renderManifestYaml(document, { schema: '../schemas/zone-manifest.schema.json' });
 */
import { stringify } from 'yaml';
import type { ZoneManifest } from '../manifest/index.js';
import { createCanonicalizer } from './canonical.js';
import { exportCustomRules } from './custom-rules/export.js';
import { exportFirewall } from './firewall/export.js';
import type { ExportResult } from './export-types.js';
import { exportPageRules } from './page-rules/export.js';
import { exportManagedRules } from './managed-rules/export.js';
import { exportPreviousWaf } from './previous-waf/export.js';
import { exportWafMigration } from './migration/export.js';
import type { LiveZone } from './live.js';

export type { AdoptionWrites, ExportResult, ExportedKind, ExportedObject, SkippedObject } from './export-types.js';
export { KeyRules, isValidKey, slugify } from './export-keys.js';
export { adoptionFilterBody, adoptionRuleBody } from './firewall/export.js';
export type { KeySource } from './export-keys.js';

/** Options of `exportManifest`. */
export interface ExportOptions {
  /** What to write as `zone:` (default: the live zone's name). */
  zone?: string;
}

/** Builds the manifest of a live zone, the keys it gives each object, and the adoption writes. */
export function exportManifest(live: LiveZone, options: ExportOptions = {}): ExportResult {
  const canon = createCanonicalizer();
  const firewall = exportFirewall(live, canon);
  const custom = exportCustomRules(live.customEntrypoint, canon);
  const managed = exportManagedRules(live.entrypoint, canon);
  const skipped = [...firewall.skipped, ...(custom?.skipped ?? []), ...(managed?.skipped ?? [])];
  const previousWaf = exportPreviousWaf(live.previousWaf, skipped);
  const wafMigration = exportWafMigration(live, managed !== undefined);
  const pageRules = exportPageRules(live.pageRules, skipped);

  // Key order of the document is the order the schema documents its sections in.
  const document: ZoneManifest = { zone: options.zone ?? live.zone.name };
  if (live.zone.plan !== undefined) document.plan = live.zone.plan;
  if (Object.keys(firewall.filters).length > 0) document.filters = firewall.filters;
  if (Object.keys(firewall.rules).length > 0) document.firewall_rules = firewall.rules;
  if (custom !== undefined) document.custom_rules = custom.rules;
  if (managed !== undefined) document.managed_rules = managed.items;
  if (previousWaf !== undefined) document.previous_waf = previousWaf;
  if (pageRules !== undefined) document.page_rules = pageRules;
  if (wafMigration !== undefined) document.waf_migration = wafMigration;

  return {
    document,
    adopted: [...firewall.objects, ...(custom?.objects ?? []), ...(managed?.objects ?? [])],
    skipped,
    refs: { filters: firewall.filterKeys, rules: firewall.ruleKeys },
    adoption: { filters: firewall.adoptFilters, firewallRules: firewall.adoptRules, entrypoint: managed?.adoption ?? null, customRules: custom?.adoption ?? null },
  };
}

/** How the YAML text starts. */
export interface RenderManifestOptions {
  /** Path or URL of the JSON Schema for the `yaml-language-server` comment (first line). */
  schema: string;
  /** Extra comment lines written after the schema line (without `#`). */
  comments?: string[];
}

/**
 * The manifest as YAML text: the `# yaml-language-server: $schema=...` line first, keys in the
 * document's order, long expressions never folded (a folded expression is harder to diff).
 */
export function renderManifestYaml(document: ZoneManifest, options: RenderManifestOptions): string {
  const head = [`# yaml-language-server: $schema=${options.schema}`, ...(options.comments ?? []).map((c) => `# ${c}`)];
  const body = stringify(document, { lineWidth: 0, minContentWidth: 0, indent: 2 });
  return `${head.join('\n')}\n${body}`;
}
