/**
 * Where something was written in a manifest: the position every desired object, and every finding
 * about one, carries.
 */

/** Where something was written: for errors found after loading (e.g. by the planner). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
  /**
   * Set when the location is an alias (`*name`) that repeats the value: the alias as written
   * (`*name`) and where the value itself is (the anchor's content), as `aliasNote` says it.
   */
  alias?: { name: string; line: number; column: number };
}

/**
 * What a message about a value reached through an alias adds (the location is the alias's):
 * ` (through the alias *name: the value is at line L, column C)`; '' for a location without one.
 * @example aliasNote({ name: '*act', line: 5, column: 13 }) // ' (through the alias *act: the value is at line 5, column 13)'
 */
export function aliasNote(alias: SourceLocation['alias']): string {
  return alias === undefined ? '' : ` (through the alias ${alias.name}: the value is at line ${alias.line}, column ${alias.column})`;
}
