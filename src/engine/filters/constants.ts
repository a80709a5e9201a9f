/**
 * Limits and words of the filters API (api-facts.md §2): field lengths and body fields, from the
 * wire contract (`../../api/filters.ts`); the codes of the filters-specific refusals are in
 * `../api-errors.ts`.
 */
export { FilterCreateFields, FilterLimits, FilterUpdateFields } from '../../api/index.js';
