/**
 * Filters on the wire (api-facts.md §2): the filter object, the fields a create or update body may
 * carry, field limits, the list's query parameters and the route patterns.
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

/** A filter as the filters API returns it (empty description/ref left out, like the real API). */
export interface FilterJson {
  id: string;
  paused: boolean;
  description?: string;
  ref?: string;
  expression: string;
  /**
   * zonewall engine extension: present (true) only on filters created by the simplified flow,
   * which refuse PUT and DELETE (10104). Left out by `serve --strict`, as on the real service.
   */
  locked?: true;
}

/** The body of a filter create or update. */
export interface FilterBody {
  expression: string;
  paused?: boolean;
  description?: string;
  ref?: string;
}

/** Query parameters of `GET /zones/{zone_id}/filters`. */
export const FilterListParams = { paused: 'paused', expression: 'expression', description: 'description', ref: 'ref', id: 'id' } as const;

/** Route patterns of filters; `:name` segments are path parameters. Bulk deletes take `?id=A&id=B`. */
export const FilterPaths = {
  collection: '/zones/:zone_id/filters',
  item: '/zones/:zone_id/filters/:filter_id',
  validateExpr: '/filters/validate-expr',
} as const;

/** Extension fields of a filter (left out by `serve --strict`). */
export const FilterExtensionFields = ['locked'] as const;
