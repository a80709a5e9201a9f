/**
 * Test helper: reads a text with both YAML readers and describes the first difference in data,
 * problems or positions (undefined when they agree; 'bail' when the fast reader declined the text).
 */
import { isDeepStrictEqual } from 'node:util';
import { readYamlFast } from '../../../src/manifest/fast-reader.js';
import { LineIndex, type MapInfo, type ParsedDocument, type SeqInfo, type Span } from '../../../src/manifest/source.js';
import { readYaml } from '../../../src/manifest/yaml-reader.js';

type Diff = string | undefined;

function sameSpan(a: Span, b: Span, where: string, scalar: boolean): Diff {
  if (a.start !== b.start) return `${where}: start ${a.start} vs ${b.start}`;
  if (scalar && (a.end !== b.end || a.style !== b.style)) return `${where}: end/style ${a.end}/${a.style} vs ${b.end}/${b.style}`;
  return undefined;
}

const isScalar = (v: unknown): boolean => typeof v !== 'object' || v === null;

function walk(fast: ParsedDocument, slow: ParsedDocument, a: unknown, b: unknown, where: string): Diff {
  if (isScalar(a)) return undefined;
  const ia = fast.containers.get(a as object) as MapInfo | SeqInfo | undefined;
  const ib = slow.containers.get(b as object) as MapInfo | SeqInfo | undefined;
  if (!ia || !ib || ia.kind !== ib.kind) return `${where}: container ${ia?.kind} vs ${ib?.kind}`;
  if (ia.kind === 'map' && ib.kind === 'map') {
    if (ia.size !== ib.size) return `${where}: ${ia.size} vs ${ib.size} entries`;
    const ea = ia.entries();
    const eb = ib.entries();
    for (let n = 0; n < ea.length; n++) {
      const e = ea[n];
      const k = ia.key(e);
      const f = ib.find(k);
      if (f < 0) return `${where}.${k}: missing in yaml reader`;
      if (f !== eb[n]) return `${where}.${k}: not entry ${n} in the yaml reader`;
      const v = (a as Record<string, unknown>)[k];
      // Each reader links an entry to its value's positions (`MapInfo.child`), as `containers` has them.
      const bv = (b as Record<string, unknown>)[k];
      if (ia.child(e) !== (isScalar(v) ? undefined : fast.containers.get(v as object))) return `${where}.${k}: fast reader's child link`;
      if (ib.child(f) !== (isScalar(bv) ? undefined : slow.containers.get(bv as object))) return `${where}.${k}: yaml reader's child link`;
      const d = sameSpan(ia.keySpan(e), ib.keySpan(f), `${where}.${k} (key)`, true) ?? sameSpan(ia.valueSpan(e), ib.valueSpan(f), `${where}.${k}`, isScalar(v))
        ?? walk(fast, slow, v, (b as Record<string, unknown>)[k], `${where}.${k}`);
      if (d) return d;
    }
  } else if (ia.kind === 'seq' && ib.kind === 'seq') {
    if (ia.size !== ib.size) return `${where}: ${ia.size} vs ${ib.size} items`;
    for (let i = 0; i < ia.size; i++) {
      const v = (a as unknown[])[i];
      const d = sameSpan(ia.itemSpan(i)!, ib.itemSpan(i)!, `${where}[${i}]`, isScalar(v)) ?? walk(fast, slow, v, (b as unknown[])[i], `${where}[${i}]`);
      if (d) return d;
    }
  }
  return undefined;
}

/** Compares the fast reader with the `yaml` reader on `text`. */
export function compareReaders(text: string): Diff | 'bail' {
  const lines = new LineIndex(text);
  const fast = readYamlFast(text, lines);
  if (fast === undefined) return 'bail';
  const slow = readYaml(text, lines);
  if (slow.fatal) return `the yaml reader found errors the fast reader missed: ${JSON.stringify(slow.problems)}`;
  if (!isDeepStrictEqual(fast.data, slow.data)) return `data: ${JSON.stringify(fast.data)} vs ${JSON.stringify(slow.data)}`;
  if (!isDeepStrictEqual(fast.problems, slow.problems)) return `problems: ${JSON.stringify(fast.problems)} vs ${JSON.stringify(slow.problems)}`;
  if (fast.data !== undefined && fast.root.start !== slow.root.start) return `root: ${fast.root.start} vs ${slow.root.start}`;
  return walk(fast, slow, fast.data, slow.data, '');
}
