/**
 * What happens to a filter when rules stop using it (a rule is deleted, or repointed to another
 * filter). Decision (documented in the README): a *locked* filter (created inline by the
 * simplified flow) is deleted as soon as no rule uses it, because nothing else could ever delete
 * it and it would block creating a filter with the same expression (a duplicate). An ordinary
 * filter is kept, as the real service does, unless the delete asked `delete_filter_if_unused`.
 */
import { apiMessage } from '../api-errors.js';
import { deleteFilter, getFilter } from '../filters/store.js';
import type { Sql } from '../sql.js';
import type { ApiMessage } from '../types.js';
import { rulesUsingFilter } from './store.js';

/**
 * Deletes the filters among `filterIds` that no rule uses any more: locked ones always, the
 * others when `deleteIfUnused`. Returns a message per deleted filter, for the envelope.
 */
export function dropUnusedFilters(sql: Sql, filterIds: Iterable<string>, deleteIfUnused: boolean): ApiMessage[] {
  const out: ApiMessage[] = [];
  for (const id of new Set(filterIds)) {
    const filter = getFilter(sql, id);
    if (filter === undefined || !(filter.locked || deleteIfUnused)) continue;
    if (rulesUsingFilter(sql, id).length > 0) continue;
    deleteFilter(sql, id);
    const why = filter.locked ? 'it was created inline with its rules and no rule uses it any more' : 'delete_filter_if_unused was set and no rule uses it';
    out.push(apiMessage('filterDeletedWithRule', `filter ${id} was deleted: ${why}`, { meta: { id } }));
  }
  return out;
}
