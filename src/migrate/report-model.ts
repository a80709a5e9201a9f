/**
 * The equivalence report as data: its rows, their verdicts (the table in `report.ts`), the
 * blockers, and the whole report. `report.ts` builds it, its Page Rules part
 * (`report-page-rules.ts`) adds rows, and `report-text.ts` renders it; the shapes live here so those
 * parts depend on them and not on each other.
 */

/** How a previous-WAF setting fares in the migration (see the table above). */
export type Verdict = 'maps' | 'changes-meaning' | 'manual' | 'differs' | 'carried';

/** One row of the report. */
export interface EquivalenceRow {
  verdict: Verdict;
  /** What the row is about, e.g. `OWASP sensitivity`. */
  subject: string;
  /** The previous WAF's setting. */
  previous: string;
  /** What the seed's mapping makes of it. */
  expected: string;
  /** What the service's proposed configuration holds (`-` when not applicable). */
  proposed: string;
  /** Why, and what to do. */
  note?: string;
}

/** A URI-based override that blocks the migration. */
export interface Blocker {
  id: string;
  urls: string[];
  description?: string;
}

/** The whole report. */
export interface EquivalenceReport {
  zone: string;
  /** Where the previous side came from: the manifest, or the live zone when the manifest has no `previous_waf`. */
  source: 'manifest' | 'live';
  rows: EquivalenceRow[];
  counts: Record<Verdict, number>;
}
