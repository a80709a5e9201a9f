/**
 * `listUses`: every `<value> in $name` of an expression, with the type of the value compared and
 * where the `$name` is in the source, so that a manifest (and the engine, on the rules a write
 * stores) can check each name against the lists it can see (an unknown list is an error, never an
 * empty match) and each list's kind against the field (`ip.src in $hosts`, a hostname list, is one).
 * The one finder of `$name` references: the manifest's checks and the engine's share it.
 */
import type { Expression } from './ast.js';
import { valueInfo } from './typing.js';
import { walkExpression } from './walk.js';
import type { Type } from './types.js';

/** One use of a named list. */
export interface ListUse {
  /** The list's name, without `$` (`office`, `cf.open_proxies`). */
  readonly name: string;
  /** The left-hand side as written (`ip.src`). */
  readonly lhs: string;
  /** The type of the values compared with the list. */
  readonly type: Type['kind'];
  /** Offset and length of `$name` in the source. */
  readonly offset: number;
  readonly length: number;
}

/** The list uses of `expr`, in source order; `source` is the text it was parsed from. */
export function listUses(expr: Expression, source: string): ListUse[] {
  const out: ListUse[] = [];
  walkExpression(expr, {
    expression: (e) => {
      if (e.type !== 'comparison' || e.rhs?.type !== 'list') return;
      out.push({
        name: e.rhs.name, lhs: source.slice(e.lhs.span.start, e.lhs.span.end), type: valueInfo(e.lhs).type.kind,
        offset: e.rhs.span.start, length: e.rhs.span.end - e.rhs.span.start,
      });
    },
  });
  return out.sort((a, b) => a.offset - b.offset);
}

/**
 * Whether `name` (without `$`) is a custom list: an account's own lists are named `^[a-z0-9_]+$`,
 * the service's managed lists `cf.<name>` (`cf.open_proxies`), so a dot tells them apart.
 */
export function isCustomListName(name: string): boolean {
  return !name.includes('.');
}

/** The uses of custom lists (not the service's managed `$cf.*` lists) in `expr`, in source order. */
export function customListUses(expr: Expression, source: string): ListUse[] {
  return listUses(expr, source).filter((use) => isCustomListName(use.name));
}
