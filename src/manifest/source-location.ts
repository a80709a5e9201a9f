/**
 * Where something was written in a manifest: the position every desired object, and every finding
 * about one, carries.
 */

/** Where something was written: for errors found after loading (e.g. by the planner). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}
