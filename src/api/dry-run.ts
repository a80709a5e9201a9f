/**
 * Dry runs: `?dry_run=true` on a write validates it exactly as a real write and persists nothing.
 * The real Rulesets API takes it on every ruleset write (create, update and delete a ruleset,
 * update an entry point, add, edit and delete a rule): a 200 answers `result: null`, a 204 stays
 * 204, and errors are the errors the write would get. zonewall's engine also takes it on its other
 * write routes (filters, firewall rules, Page Rules, previous WAF, migration, and any route added
 * later) as an extension, absent under `serve --strict` (there the parameter is refused with 10017
 * on those routes rather than ignored, so a request asking for a dry run never writes).
 */

/** The query parameter of a dry run. */
export const DryRunParameter = 'dry_run';

/** Route patterns under this prefix have dry runs on the real API (the Rulesets API). */
export const DryRunApiPrefix = '/zones/:zone_id/rulesets';

