/**
 * The prepared entries of a burst (`burst-prepare.ts`, read by `burst.ts`'s loop): per variant, the
 * rules that match or count it and its counter slot in each, in flat typed arrays laid out in
 * variant order, and how they are built (variants in any order, then laid out).
 */

/**
 * The rules that match or count each variant, with the variant's counter slot in each, side by
 * side in flat typed arrays (no object per entry), in variant order so the loop over the requests
 * reads them in sequence: variant `j`'s entries are `starts[j]` to `ends[j]` (exclusive), in rule
 * order; `flags` 1 applies, 2 counted.
 */
export interface Prepared {
  starts: Int32Array;
  ends: Int32Array;
  rule: Int32Array;
  slot: Int32Array;
  flags: Uint8Array;
  weight: Float64Array;
}

/** `Prepared` while it is made: variants in any order, arrays that grow. */
export interface Building {
  starts: Int32Array;
  ends: Int32Array;
  rule: number[];
  slot: number[];
  flags: number[];
  weight: number[];
}

/** Empty prepared entries for `variants` variants. */
export function preparedFor(variants: number): Building {
  return { starts: new Int32Array(variants), ends: new Int32Array(variants), rule: [], slot: [], flags: [], weight: [] };
}

/** The entries made, laid out in variant order in typed arrays. */
export function inVariantOrder(b: Building): Prepared {
  const n = b.starts.length;
  const size = b.rule.length;
  const out: Prepared = { starts: new Int32Array(n), ends: new Int32Array(n), rule: new Int32Array(size), slot: new Int32Array(size), flags: new Uint8Array(size), weight: new Float64Array(size) };
  let at = 0;
  for (let j = 0; j < n; j++) {
    out.starts[j] = at;
    for (let k = b.starts[j]!; k < b.ends[j]!; k++, at++) {
      out.rule[at] = b.rule[k]!;
      out.slot[at] = b.slot[k]!;
      out.flags[at] = b.flags[k]!;
      out.weight[at] = b.weight[k]!;
    }
    out.ends[j] = at;
  }
  return out;
}

/** Sorts entries `from` to `to` (a few) by rule, in place. */
export function sortByRule(p: Building, from: number, to: number): void {
  const { rule, slot, flags, weight } = p;
  for (let k = from + 1; k < to; k++) {
    const r = rule[k]!, s = slot[k]!, f = flags[k]!, w = weight[k]!;
    let m = k - 1;
    for (; m >= from && rule[m]! > r; m--) {
      rule[m + 1] = rule[m]!;
      slot[m + 1] = slot[m]!;
      flags[m + 1] = flags[m]!;
      weight[m + 1] = weight[m]!;
    }
    rule[m + 1] = r;
    slot[m + 1] = s;
    flags[m + 1] = f;
    weight[m + 1] = w;
  }
}
