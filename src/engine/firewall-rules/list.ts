/**
 * Firewall rules as lists: a page of rules for a list query (`listRules`), and the whole list in
 * evaluation order that the in-memory view keeps (`ruleListSource`, `list-view.ts`). Both read the
 * same listed columns into the API object (`rawRowToJson`).
 */
import { filterJsonAt, filterListSource, type FilterJson } from '../filters/store.js';
import { compareFirewallRules } from '../../api/index.js';
import { listView, type ListSource } from '../list-view.js';
import { whereClause, type Sql, type SqlValue } from '../sql.js';
import { FirewallActions, type BypassProduct, type FirewallAction } from './constants.js';
import { RULE_EVALUATION_ORDER, actionPlace, type RuleJson } from './store.js';

/** Query filters of the list operation (api-facts.md §3). */
export interface RuleListQuery {
  /** Case-insensitive substring. */
  description?: string;
  /** Exact. */
  action?: string;
  paused?: boolean;
  /** Exact. */
  id?: string;
}

/**
 * One page of rules in evaluation order (`RULE_EVALUATION_ORDER`: priority, `null` last, then
 * action precedence, then ref, then id), as API objects, and the total matching the query. Decision:
 * the list shows rules in the order they run, as the dashboard's rules list does, so a reader (or
 * an SDK paging through) sees precedence without re-sorting; the tie-break on ref and id keeps pages
 * stable and is the order every evaluator uses (`compareFirewallRules`). The hot path of every plan (and of the engine benchmark): the page is cut in a subquery
 * over the sort columns alone (so OFFSET skips rows without reading the others),
 * only its rows are joined to their filters, only the columns the API shows are read, and rows
 * come as arrays and become JSON objects in one step.
 */
export function listRules(sql: Sql, q: RuleListQuery, limit: number, offset: number): { items: RuleJson[]; total: number } {
  const { clause, args } = whereClause([
    { column: 'description', op: 'contains', value: q.description },
    { column: 'action', op: 'exact', value: q.action },
    { column: 'paused', op: 'flag', value: q.paused },
    { column: 'id', op: 'exact', value: q.id },
  ]);
  const rows = sql.exec(
    `${SELECT_LISTED}
     WHERE r.seq IN (SELECT seq FROM firewall_rules r ${clause} ORDER BY ${RULE_EVALUATION_ORDER} LIMIT ? OFFSET ?)
     ORDER BY ${RULE_EVALUATION_ORDER}`,
    ...args, limit, offset,
  ).raw().toArray();
  // A short page that is not empty tells the total without counting.
  const total = rows.length > 0 && rows.length < limit
    ? offset + rows.length
    : sql.exec<{ n: number }>(`SELECT count(*) AS n FROM firewall_rules ${clause}`, ...args).one().n;
  return { items: rows.map((row) => rawRowToJson(row, joinedFilter(row))), total };
}

/**
 * The columns of a listed rule (`rawRowToJson`), then the rule's `seq` (index 10). The products and
 * the modification time come as NULL when they say nothing (no products; not modified since
 * created), as most rules' do, and a known action as its place in `FirewallActions`: no text is
 * made for them, only to be dropped.
 */
const RULE_LISTED = `r.id, r.paused, r.description, r.ref, ${actionPlace('r.', 'r.action')}, r.priority, NULLIF(r.products, '[]'), r.filter_id, r.created_on, NULLIF(r.modified_on, r.created_on), r.seq`;

/** A listed rule's columns, then its filter's as `filterJsonAt` reads them (from index 11; NULL when the filter is gone). */
const SELECT_LISTED = `SELECT ${RULE_LISTED}, f.id, f.paused, f.description, f.ref, f.expression, f.locked
     FROM firewall_rules r LEFT JOIN filters f ON f.id = r.filter_id`;

/** The filter of a `SELECT_LISTED` row, or undefined when it is gone. */
function joinedFilter(row: SqlValue[]): FilterJson | undefined {
  return row[11] === null ? undefined : filterJsonAt(row, 11);
}

/** A rule of the in-memory list (`list-view.ts`): its API object. */
export type RuleListEntry = Readonly<RuleJson>;

/**
 * A list entry from a row of `RULE_LISTED` columns and the rule's filter (frozen: shared by answers).
 * `filterFrozen`: the filter is the filter list's entry, frozen already (not frozen again per rule).
 */
function listEntry(row: SqlValue[], filter: FilterJson | undefined, filterFrozen = false): RuleListEntry {
  const json = rawRowToJson(row, filter);
  // Frozen through and through: in-process answers share it (`Engine.dispatch` copies only what is not frozen).
  if (!filterFrozen) Object.freeze(json.filter);
  if (json.products !== undefined) Object.freeze(json.products);
  return Object.freeze(json);
}

/** `RULE_EVALUATION_ORDER` of two list entries: `compareFirewallRules` of `src/api` (ref and id break ties, not creation). */
function compareEntries(a: RuleListEntry, _aSeq: number, b: RuleListEntry, _bSeq: number): number {
  return compareFirewallRules(a, b);
}

/**
 * The whole rule list in evaluation order, for the in-memory view that answers unfiltered list
 * pages (`list-view.ts`): the same objects `listRules` builds, kept until a write notes the rule
 * or its filter. The whole list embeds the filters of the filter list's view, as they are (the
 * same frozen objects): a plan reads that list anyway, and a join would read every filter row
 * again (issue 17: about a quarter of the SQLite stepping of a 50-zone plan). One rule read again after
 * a write is joined to its filter in SQL.
 */
export const ruleListSource: ListSource<RuleListEntry> = {
  table: 'firewall_rules',
  all: (sql) => {
    const filters = new Map<string, FilterJson>();
    for (const f of listView(sql, filterListSource).entries(sql)) filters.set(f.id, f);
    const texts = new RepeatedTexts();
    const entries: RuleListEntry[] = [];
    const seqs: number[] = [];
    // Each entry made as its row is stepped: the row arrays die young instead of all living until the last.
    for (const row of sql.exec(`SELECT ${RULE_LISTED} FROM firewall_rules r ORDER BY ${RULE_EVALUATION_ORDER}`).raw()) {
      const filter = filters.get(row[7] as string);
      entries.push(listEntry(texts.shared(row), filter, filter !== undefined));
      seqs.push(row[10] as number);
    }
    return { entries, seqs };
  },
  one: (sql, id) => {
    const rows = sql.exec(`${SELECT_LISTED} WHERE r.id = ?`, id).raw().toArray();
    return rows.length > 0 ? { entry: listEntry(rows[0]!, joinedFilter(rows[0]!)), seq: rows[0]![10] as number } : undefined;
  },
  compare: compareEntries,
  embeds: (entry, table, id) => table === 'filters' && entry.filter.id === id,
};

/**
 * One copy of the texts that repeat from row to row of a whole list: the rules one request wrote
 * share their timestamps, and the list keeps every rule for as long as
 * its zone is read, so each row's own copy would be kept too (a 1,000-rule zone has a few distinct
 * timestamps). Each text is compared with the last one kept, which is where repeats are.
 */
class RepeatedTexts {
  #created = '';
  #modified = '';

  /** `row` (`RULE_LISTED` columns) with its timestamps replaced by equal texts kept before. */
  shared(row: SqlValue[]): SqlValue[] {
    if (row[8] === this.#created) row[8] = this.#created;
    else this.#created = row[8] as string;
    if (row[9] === null) return row;
    if (row[9] === this.#modified) row[9] = this.#modified;
    else this.#modified = row[9] as string;
    return row;
  }
}

/** A row of `RULE_LISTED` columns and the rule's filter (undefined: gone) as the API object, like `ruleToJson`. */
function rawRowToJson(row: SqlValue[], filter: FilterJson | undefined): RuleJson {
  const id = row[0] as string;
  const paused = row[1] === 1;
  const description = row[2] as string;
  const ref = row[3] as string;
  const action = (typeof row[4] === 'number' ? FirewallActions[row[4]] : row[4]) as FirewallAction;
  const priority = row[5] as number | null;
  const json = filter ?? { id: row[7] as string, deleted: true as const };
  const created_on = row[8] as string;
  const modified_on = (row[9] ?? row[8]) as string;
  // One object literal per shape of a rule without products (the lists keep thousands of them):
  // every field sits in the object itself, where fields added one by one would need a property array too.
  if (row[6] === null) {
    if (description === '') {
      return ref === ''
        ? { id, paused, action, priority, filter: json, created_on, modified_on }
        : { id, paused, ref, action, priority, filter: json, created_on, modified_on };
    }
    return ref === ''
      ? { id, paused, description, action, priority, filter: json, created_on, modified_on }
      : { id, paused, description, ref, action, priority, filter: json, created_on, modified_on };
  }
  const out = { id, paused } as RuleJson;
  if (description !== '') out.description = description;
  if (ref !== '') out.ref = ref;
  out.action = action;
  out.priority = priority;
  out.products = JSON.parse(row[6] as string) as BypassProduct[];
  out.filter = json;
  out.created_on = created_on;
  out.modified_on = modified_on;
  return out;
}
