/**
 * The order a rules phase (a Rulesets API entry point of the zone) should end in, and which rules must
 * move to get there. The target list
 * is the live list with every matched rule's place taken, in live order, by the desired rules in
 * manifest order; kept live rules (unmanaged) stay where they are; a new rule goes right after the
 * desired rule before it (before the first matched one when it leads), or at the end when nothing
 * matched. The rules that do not move are a longest run of live rules whose live order the target
 * keeps (a weighted longest increasing subsequence, kept rules weighing more than all others, so
 * they never move); every other live rule is `moved`. A reorder thus moves the fewest rules.
 */
/** One rule of the target list. */
export interface TargetItem<D extends { ref: string }> {
  /** The desired rule; undefined for a kept (unmanaged) live rule. */
  desired?: D;
  /** Index in the live list; undefined for a new rule. */
  live?: number;
  /** 1-based place in the target list. */
  position: number;
  /** True when the rule exists and must change place relative to the rules that stay. */
  moved: boolean;
}

type Draft<D extends { ref: string }> = Omit<TargetItem<D>, 'position' | 'moved'>;

function draftOrder<D extends { ref: string }>(wanted: readonly D[], live: readonly unknown[], matched: ReadonlyMap<D, number>, kept: ReadonlySet<number>): Draft<D>[] {
  const runs: Draft<D>[][] = [];
  let leading: Draft<D>[] = [];
  for (const d of wanted) {
    const i = matched.get(d);
    const item: Draft<D> = i !== undefined ? { desired: d, live: i } : { desired: d };
    if (i !== undefined) { runs.push([...leading, item]); leading = []; } else if (runs.length > 0) runs[runs.length - 1]!.push(item); else leading.push(item);
  }
  const places = new Set(matched.values());
  const out: Draft<D>[] = [];
  let slot = 0;
  live.forEach((_, i) => {
    if (kept.has(i)) out.push({ live: i });
    else if (places.has(i)) out.push(...runs[slot++]!);
  });
  return [...out, ...leading];
}

/**
 * Indexes (into `items`) of a maximum-weight subsequence with increasing live index. A kept rule
 * outweighs all managed ones together; among equally long runs, rules already at their target
 * place are preferred, so the plan's `position a -> b` never shows a rule moving to where it is.
 */
function stayers<D extends { ref: string }>(items: readonly Draft<D>[]): Set<number> {
  const idx = items.flatMap((t, i) => (t.live !== undefined ? [i] : []));
  const unit = idx.length + 1;
  const weight = (i: number) => (items[i]!.desired === undefined ? unit * unit : unit + (items[i]!.live === i ? 1 : 0));
  // Each item's live index and weight, read once: the loop below is quadratic in the phase's rules.
  const lives = idx.map((i) => items[i]!.live!);
  const weights = idx.map((i) => weight(i));
  const best = [...weights];
  const prev = idx.map(() => -1);
  for (let a = 0; a < idx.length; a++) {
    const live = lives[a]!;
    const w = weights[a]!;
    for (let b = 0; b < a; b++) {
      if (lives[b]! < live && best[b]! + w > best[a]!) {
        best[a] = best[b]! + w;
        prev[a] = b;
      }
    }
  }
  let end = -1;
  best.forEach((w, a) => { if (end < 0 || w > best[end]!) end = a; });
  const out = new Set<number>();
  for (let a = end; a >= 0; a = prev[a]!) out.add(idx[a]!);
  return out;
}

/** The target list of a rules phase: `matched` maps desired rules to their live index, `kept` holds the unmanaged live rules' indexes. */
export function phaseTarget<D extends { ref: string }>(wanted: readonly D[], live: readonly unknown[], matched: ReadonlyMap<D, number>, kept: ReadonlySet<number>): TargetItem<D>[] {
  const drafts = draftOrder(wanted, live, matched, kept);
  const stay = stayers(drafts);
  return drafts.map((d, i) => ({ ...d, position: i + 1, moved: d.live !== undefined && !stay.has(i) }));
}
