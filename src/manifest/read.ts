/**
 * Chooses the YAML reader for a manifest's text: the fast reader for the plain YAML manifests are
 * made of, and the `yaml` package for everything else, including every text with a YAML error (so
 * error messages always come from `yaml`). Both produce the same data and positions.
 */
import { readYamlFast } from './fast-reader.js';
import { Locator } from './locate.js';
import { LineIndex, type ParsedDocument } from './source.js';
import { readYaml } from './yaml-reader.js';

/** Reads a manifest's YAML text into data with positions. */
export function readManifestYaml(text: string, lines: LineIndex): ParsedDocument {
  return readYamlFast(text, lines) ?? readYaml(text, lines);
}

/**
 * Plain YAML (what the fast reader takes, with no problem found) read with a locator for its issues,
 * or undefined: then the caller's own reader reads it and gives the messages. Policy tests' cases
 * files are plain YAML too, and often long (a burst's `vary` lists).
 */
export function readPlainYaml(text: string, file: string): { data: unknown; locator: Locator } | undefined {
  const lines = new LineIndex(text);
  const doc = readYamlFast(text, lines);
  if (doc === undefined || doc.problems.length > 0 || doc.data === undefined) return undefined;
  return { data: doc.data, locator: new Locator(file, doc, lines) };
}
