/**
 * Chooses the YAML reader for a manifest's text: the fast reader for the plain YAML manifests are
 * made of, and the `yaml` package for everything else, including every text with a YAML error (so
 * error messages always come from `yaml`). Both produce the same data and positions.
 */
import { readYamlFast } from './fast-reader.js';
import type { LineIndex, ParsedDocument } from './source.js';
import { readYaml } from './yaml-reader.js';

/** Reads a manifest's YAML text into data with positions. */
export function readManifestYaml(text: string, lines: LineIndex): ParsedDocument {
  return readYamlFast(text, lines) ?? readYaml(text, lines);
}
