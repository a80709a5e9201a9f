/**
 * `export`: a manifest from a live zone, as a pure function (values in, values out; the CLI reads
 * the zone and writes the file). Every exported object gets a key: its existing `ref` when that is
 * a valid, unique key, else a readable slug of its description, else `<kind>-<id8>`
 * (`export-keys.ts`). Each kind exports its own sections (`PlanKind.export`). The result lists what
 * was exported under which key, what could not be and why, and the writes that adopt the objects:
 * each live object gets its key as `ref` (one bulk PUT per resource type, one PUT per rules phase),
 * so the next plan matches it by ref and shows no changes.
 *
 * @example
 * const { document, adopted, adoption } = exportManifest(await provider.readZone(zoneId));
 * const text = renderManifestYaml(document, { schema: '../schemas/zone-manifest.schema.json' });
 */
import { stringify } from 'yaml';
import { inWrittenOrder } from './export-order.js';
import type { ZoneManifest } from '../manifest/index.js';
import { createCanonicalizer } from './canonical.js';
import type { ExportResult } from './export-types.js';
import { PlanKinds } from './kinds.js';
import type { LiveZone } from './live.js';

export type { AdoptionWrites, ExportResult, ExportedKind, ExportedObject, SkippedObject } from './export-types.js';
export { KeyRules, isValidKey, slugify } from './export-keys.js';
export type { KeySource } from './export-keys.js';

/** Options of `exportManifest`. */
export interface ExportOptions {
  /** What to write as `zone:` (default: the live zone's name). */
  zone?: string;
}

/** Builds the manifest of a live zone, the keys it gives each object, and the adoption writes. */
export function exportManifest(live: LiveZone, options: ExportOptions = {}): ExportResult {
  const canon = createCanonicalizer();
  // Key order of the document is the order the schema documents its sections in: the kinds' order.
  const document: ZoneManifest = { zone: options.zone ?? live.zone.name };
  if (live.zone.plan !== undefined) document.plan = live.zone.plan;
  const result: ExportResult = { document, adopted: [], skipped: [], adoption: { writes: [], phaseWrites: [] } };
  for (const kind of PlanKinds) {
    const e = kind.export?.(live, { canon, document });
    if (e === undefined) continue;
    Object.assign(document, e.sections);
    result.adopted.push(...(e.adopted ?? []));
    result.skipped.push(...(e.skipped ?? []));
    result.adoption.writes.push(...(e.adoption?.writes ?? []));
    result.adoption.phaseWrites.push(...(e.adoption?.phaseWrites ?? []));
  }
  return result;
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
  const body = stringify(document, inWrittenOrder, { lineWidth: 0, minContentWidth: 0, indent: 2 });
  return `${head.join('\n')}\n${body}`;
}
