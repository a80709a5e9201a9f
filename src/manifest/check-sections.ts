/**
 * The checks the JSON Schema cannot state (references between keys, duplicates, rules between
 * fields and between sections), run after the expression checks: every kind checks its sections,
 * on the parts the schema found sound, so one run reports everything.
 */
import { kinds } from './kinds.js';
import type { Checks } from './view.js';

/** Runs every kind's checks of its sections. */
export function checkSections(checks: Checks, data: Record<string, unknown>): void {
  for (let k = 0; k < kinds.length; k++) kinds[k].check?.(checks, data);
}
