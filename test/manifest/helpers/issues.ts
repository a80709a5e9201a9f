/** Test helper: validates manifest text and returns its issues as formatted lines. */
import { formatIssue, validateManifestText, type DesiredPlanTier } from '../../../src/manifest/index.js';

/** The issues of `text` (validated as `zone.yaml`), each as `zone.yaml:L:C: path: message`. */
export function issuesOf(text: string, tier?: DesiredPlanTier): string[] {
  return validateManifestText(text, 'zone.yaml', tier === undefined ? {} : { tier }).issues.map(formatIssue);
}

/** Joins lines into a document (with a final line break). */
export function doc(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}
