/**
 * The zone side of lists: every `$name` its stored rules use (filters and the firewall rules that
 * use them, and the rules of every served ruleset phase, enabled or not), and the check a write
 * must pass: a rule may reference only a list its account has, of the kind its field takes
 * (`ip.src` an IP list, `ip.src.asnum` an ASN list, `http.host` a hostname list); a rate limiting
 * rule's counting expression is one of its expressions. The check runs
 * after a write's handler, inside its transaction, on the zone as the write left it, so every write
 * path (filters, firewall rules, entry point PUTs, single-rule calls, any phase) is covered by one
 * check; references that were already there before the write (a zone older than lists) do not
 * block it.
 */
import { ListErrors, RatelimitPhase, CountingPhase } from '../../api/index.js';
import { listUses, parse, type Phase } from '../../expr/index.js';
import { ApiError } from '../api-errors.js';
import { pointerToken } from '../body-reader.js';
import { rulesTables } from '../rulesets/store.js';
import type { Sql } from '../sql.js';
import type { ZoneInfo } from '../types.js';
import type { ListCatalogEntry } from './catalog.js';
import type { ListReferenceInfo } from './context.js';

/** One reference with the kind of list its field needs. */
export interface TypedReference extends ListReferenceInfo {
  /** `ip`, `asn` or `hostname`; undefined for a field no list kind fits. */
  needs: string | undefined;
}

function kindForType(kind: string): string | undefined {
  return kind === 'Ip' ? 'ip' : kind === 'Int' ? 'asn' : kind === 'Bytes' ? 'hostname' : undefined;
}

function refsOf(source: string, phase: Phase | undefined, zone: ZoneInfo, rule: string, out: TypedReference[]): void {
  let refs;
  try {
    refs = listUses(parse(source, phase !== undefined ? { phase } : {}), source);
  } catch {
    return; // stored expressions were checked when written
  }
  for (const r of refs) out.push({ list: r.name, zone_id: zone.id, zone_name: zone.name, rule, needs: kindForType(r.type) });
}

function tableExists(sql: Sql, table: string): boolean {
  return sql.exec('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?', 'table', table).toArray().length > 0;
}

/** Every `$name` reference of the zone's stored rules. */
export function zoneListReferences(sql: Sql, zone: ZoneInfo): TypedReference[] {
  const out: TypedReference[] = [];
  if (tableExists(sql, 'filters')) {
    const filters = sql.exec<{ id: string; expression: string }>(`SELECT id, expression FROM filters WHERE instr(expression, '$') > 0 ORDER BY seq`).toArray();
    for (const f of filters) {
      const rules = tableExists(sql, 'firewall_rules') ? sql.exec<{ id: string }>('SELECT id FROM firewall_rules WHERE filter_id = ? ORDER BY seq', f.id).toArray() : [];
      const labels = rules.length === 0 ? [`filter ${f.id}`] : rules.map((r) => `firewall rule ${r.id} (filter ${f.id})`);
      for (const label of labels) refsOf(f.expression, undefined, zone, label, out);
    }
  }
  for (const { table, phase } of rulesTables()) {
    if (!tableExists(sql, table)) continue;
    // A rate limiting rule's counting expression may name lists too (with the response's fields).
    const counting = phase === RatelimitPhase;
    const rules = sql.exec<{ ref: string; expression: string; ratelimit?: string | null }>(counting
      ? `SELECT ref, expression, ratelimit FROM ${table} WHERE instr(expression, '$') > 0 OR instr(ratelimit, '$') > 0 ORDER BY position`
      : `SELECT ref, expression FROM ${table} WHERE instr(expression, '$') > 0 ORDER BY position`).toArray();
    for (const r of rules) {
      const label = `rule ${r.ref} of ${phase}`;
      refsOf(r.expression, phase as Phase, zone, label, out);
      const countingExpression = typeof r.ratelimit === 'string' ? (JSON.parse(r.ratelimit) as { counting_expression?: unknown }).counting_expression : undefined;
      if (typeof countingExpression === 'string') refsOf(countingExpression, CountingPhase as Phase, zone, label, out);
    }
  }
  return out;
}

/** The references the catalog does not satisfy: unknown list, or a list of another kind. */
export function unsatisfied(refs: readonly TypedReference[], catalog: readonly ListCatalogEntry[]): { ref: TypedReference; reason: string }[] {
  const byName = new Map(catalog.map((e) => [e.name, e]));
  const out: { ref: TypedReference; reason: string }[] = [];
  for (const ref of refs) {
    const list = byName.get(ref.list);
    if (list === undefined) out.push({ ref, reason: `${ref.rule} references list $${ref.list}, which the zone's account does not have (create it first${ref.list.startsWith('cf.') ? '; managed lists need an Enterprise account' : ''})` });
    else if (ref.needs !== undefined && ref.needs !== list.kind) out.push({ ref, reason: `${ref.rule} compares a field that takes ${ref.needs} lists with $${ref.list}, an ${list.kind} list` });
  }
  return out;
}

const keyOf = (u: { ref: TypedReference; reason: string }): string => `${u.ref.rule}\u0000${u.ref.list}`;

/** Keys of a request body whose string values are expressions (filters, rules, a rate limit's counting). */
const ExpressionKeys = new Set(['expression', 'counting_expression']);

/**
 * The JSON pointer of the first expression of `body` that names `$list` (`/rules/0/expression`,
 * `/0/filter/expression`, `/ratelimit/counting_expression`, …), so the refusal names the field as
 * every other field error does; undefined when the body holds none (the reference was already stored).
 */
export function listPointer(body: unknown, list: string): string | undefined {
  const name = new RegExp(`\\$${list.replace(/\./g, '\\.')}(?![\\w.])`);
  const walk = (value: unknown, at: string, depth: number): string | undefined => {
    if (depth > 8 || typeof value !== 'object' || value === null) return undefined;
    for (const [key, child] of Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)) {
      const here = `${at}/${pointerToken(key)}`;
      if (typeof child === 'string') {
        if (ExpressionKeys.has(key) && name.test(child)) return here;
      } else {
        const found = walk(child, here, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(body, '', 0);
}

/**
 * Refuses the write (throws, rolling its transaction back) when it leaves a reference the catalog
 * does not satisfy that was not there before it (`before`: the unsatisfied keys before the write).
 * `body`: the request's, to point each refusal at the expression that names the list.
 */
export function requireKnownLists(sql: Sql, zone: ZoneInfo, catalog: readonly ListCatalogEntry[], before: ReadonlySet<string>, body?: unknown): void {
  const fresh = unsatisfied(zoneListReferences(sql, zone), catalog).filter((u) => !before.has(keyOf(u)));
  if (fresh.length === 0) return;
  throw new ApiError(ListErrors.unknownList.status, fresh.map((u) => {
    const pointer = listPointer(body, u.ref.list);
    return { code: ListErrors.unknownList.code, message: u.reason, ...(pointer === undefined ? {} : { source: { pointer } }), meta: { list: u.ref.list, rule: u.ref.rule } };
  }));
}

/** The keys of the references the catalog does not satisfy now (taken before a write). */
export function unsatisfiedKeys(sql: Sql, zone: ZoneInfo, catalog: readonly ListCatalogEntry[]): Set<string> {
  return new Set(unsatisfied(zoneListReferences(sql, zone), catalog).map(keyOf));
}
