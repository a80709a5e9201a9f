/**
 * What happens to a filter when rules stop using it (a rule is deleted, or repointed to another
 * filter). As on the real service (api-facts.md §3), the filter is kept: a filter may serve other
 * features, and a simplified-flow filter is protected from PUT and DELETE for exactly that reason.
 * It is deleted only when a rule delete asks `delete_filter_if_unused` and no other rule uses it,
 * whether it was created through the filters API or inline.
 */
import { apiMessage } from '../api-errors.js';
import { deleteFilter, getFilter } from '../filters/store.js';
import type { Sql } from '../sql.js';
import type { ApiMessage } from '../types.js';
import { rulesUsingFilter } from './store.js';

/**
 * Deletes the filters among `filterIds` that no rule uses any more (the caller asked
 * `delete_filter_if_unused`). Returns a message per deleted filter, for the envelope.
 */
export function dropUnusedFilters(sql: Sql, filterIds: Iterable<string>): ApiMessage[] {
  const out: ApiMessage[] = [];
  for (const id of new Set(filterIds)) {
    if (getFilter(sql, id) === undefined || rulesUsingFilter(sql, id).length > 0) continue;
    deleteFilter(sql, id);
    out.push(apiMessage('filterDeletedWithRule', `filter ${id} was deleted: delete_filter_if_unused was set and no rule uses it`, { meta: { id } }));
  }
  return out;
}
