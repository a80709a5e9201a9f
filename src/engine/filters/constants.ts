/**
 * Limits and words of the filters API (api-facts.md §2): field lengths, and the codes of the
 * filters-specific refusals are in `../api-errors.ts`.
 */

/** Field length limits of a filter, in characters (real service figures). */
export const FilterLimits = {
  /** The API's limit (the dashboard's is 4,000). */
  expression: 4096,
  description: 500,
  ref: 50,
} as const;

/** Fields a filter body may carry on create. */
export const FilterCreateFields = ['expression', 'paused', 'description', 'ref'] as const;

/**
 * Fields a filter body may carry on update: the create fields plus the read-only ones a client
 * echoes back from a GET (`id`, which must match; `locked`, ignored).
 */
export const FilterUpdateFields = [...FilterCreateFields, 'id', 'locked'] as const;
