import { describe, expect, it } from 'vitest';
import { validateManifestText } from '../../src/manifest/index.js';
import { MapInfo, PositionStore, SeqInfo, styleCode } from '../../src/manifest/positions.js';
import { LineIndex } from '../../src/manifest/source.js';
import { compareReaders } from './helpers/compare-readers.js';

describe('position store', () => {
  it('finds keys by scanning small maps and through an index past eight entries, in the order written', () => {
    const store = new PositionStore(1); // grows: every map below needs more records than this
    const small = new MapInfo(store);
    const big = new MapInfo(store);
    for (let i = 0; i < 20; i++) {
      big.add(`k${i}`, i * 10, i * 10 + 2, styleCode('plain'), i * 10 + 4, i * 10 + 6, styleCode(i % 2 ? 'double' : undefined), undefined);
      if (i < 3) small.add(`s${i}`, 1000 + i, 1001 + i, styleCode('single'), 2000 + i, 2001 + i, styleCode('literal'), i === 0 ? big : undefined);
      if (i === 5) expect(big.find('k3')).toBeGreaterThanOrEqual(0); // searched by scanning, before the index exists
    }
    expect(big.size).toBe(20);
    expect(big.entries().map((r) => big.key(r))).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`));
    for (let i = 0; i < 20; i++) {
      const r = big.find(`k${i}`);
      expect(big.keySpan(r)).toEqual({ start: i * 10, end: i * 10 + 2, style: 'plain' });
      expect(big.valueSpan(r)).toEqual(i % 2 ? { start: i * 10 + 4, end: i * 10 + 6, style: 'double' } : { start: i * 10 + 4, end: i * 10 + 6 });
    }
    big.add('late', 500, 504, styleCode('plain'), 506, 507, styleCode('plain'), undefined); // after the index was built
    expect(big.keySpan(big.find('late'))).toEqual({ start: 500, end: 504, style: 'plain' });
    expect(big.find('s1')).toBe(-1);
    expect(small.entries().map((r) => small.key(r))).toEqual(['s0', 's1', 's2']);
    expect(small.valueSpan(small.find('s2'))).toEqual({ start: 2002, end: 2003, style: 'literal' });
    expect(small.nodeStart(small.find('s0'), {})).toBe(1000); // a map value: at its key
    expect(small.nodeStart(small.find('s0'), 'x')).toBe(2000); // a scalar: at the value
    expect(small.child(small.find('s0'))).toBe(big);
    expect(small.child(small.find('s1'))).toBeUndefined();
  });

  it('gives list item spans, and none for indexes that are not items', () => {
    const seq = new SeqInfo();
    seq.add(3, 5, styleCode('plain'));
    seq.add(7, 9, styleCode(undefined));
    expect(seq.size).toBe(2);
    expect(seq.itemSpan(0)).toEqual({ start: 3, end: 5, style: 'plain' });
    expect(seq.itemSpan(1)).toEqual({ start: 7, end: 9 });
    for (const i of [-1, 2, 0.5]) expect(seq.itemSpan(i)).toBeUndefined();
  });
});

describe('line index', () => {
  it('answers lines and columns in any order as a binary search does', () => {
    const text = 'a: 1\n\nbb: 22\nccc: 333\n';
    const lines = new LineIndex(text);
    const expected = (offset: number) => {
      const at = Math.max(0, Math.min(offset, text.length));
      const before = text.slice(0, at).split('\n');
      return { line: before.length, column: before[before.length - 1].length + 1 };
    };
    const offsets = [0, 4, 5, 6, 13, 21, 22, 99, -3, 12, 1, 22, 6, 5];
    // Ascending (the nearby-line path), then scattered (the binary search).
    for (let o = -1; o <= text.length + 1; o++) offsets.push(o);
    for (let o = 0; o < 60; o++) offsets.push((o * 7919) % (text.length + 2));
    for (const o of offsets) expect(lines.position(o), `offset ${o}`).toEqual(expected(o));
    expect(lines.lineText(3)).toBe('bb: 22');
    expect(lines.lineText(9)).toBe('');
  });

  it('holds one start per line, also when lines are shorter than its first guess (16 characters a line) and for no text', () => {
    for (const text of ['', 'x', '\n', 'a\nb', '\n'.repeat(1000), `${'ab\n'.repeat(500)}c`, `${'x'.repeat(5000)}\n`]) {
      const starts = [0];
      for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
      expect([...new LineIndex(text).starts], JSON.stringify(text.slice(0, 8))).toEqual(starts);
    }
  });
});

describe('positions of a large manifest', () => {
  it('reads maps past the scan limit and flows past the expected record count the same with both readers', () => {
    const flow = Array.from({ length: 40 }, (_, i) => `k${i}: ${i}`).join(', ');
    const text = ['zone: z.example', `extra: {${flow}}`, 'filters:', ...Array.from({ length: 30 }, (_, i) => `  f${i}: {expression: "ip.src eq 10.0.0.${i}"}`)].join('\n');
    expect(compareReaders(`${text}\n`)).toBeUndefined();
  });

  it('places errors in the 30th filter and its locations like any other', () => {
    const filters = Array.from({ length: 30 }, (_, i) => [`  f${i}:`, `    expression: ip.src eq 10.0.0.${i === 29 ? 'x' : i}`]).flat();
    const rules = ['firewall_rules:', '  r:', '    action: block', '    filter: f28'];
    const bad = validateManifestText(['zone: z.example', 'filters:', ...filters, ...rules].join('\n'), 'z.yaml');
    expect(bad.issues.map((i) => [i.line, i.column, i.path])).toEqual([[62, 27, 'filters.f29.expression']]);
    const good = validateManifestText(['zone: z.example', 'filters:', ...filters.slice(0, -2), ...rules].join('\n'), 'z.yaml');
    expect(good.issues).toEqual([]);
    const f28 = good.zone!.filters.find((f) => f.ref === 'f28')!;
    expect(f28.location).toEqual({ file: 'z.yaml', line: 59, column: 3 });
    expect(f28.fieldLocations).toEqual({ expression: { file: 'z.yaml', line: 60, column: 17 } });
    expect(good.zone!.firewallRules[0].fieldLocations).toEqual({
      action: { file: 'z.yaml', line: 63, column: 13 }, filter: { file: 'z.yaml', line: 64, column: 13 },
    });
  });

  it('keeps and locates entries in the order written, integer-like keys too (which JavaScript lists first)', () => {
    const text = ['zone: z.example', 'filters:', '  b: {expression: ip.src eq 10.0.0.1}', '  "2": {expression: ip.src eq 10.0.0.2}',
      '  a: {expression: ip.src eq 10.0.0.3}', '  "1": {expression: ip.src eq 10.0.0.4}', 'firewall_rules:',
      '  x: {action: block, filter: a}', '  "7": {action: log, filter: b}'].join('\n');
    const { zone, issues } = validateManifestText(`${text}\n`, 'z.yaml');
    expect(issues).toEqual([]);
    expect(zone!.filters.map((f) => [f.ref, f.location.line])).toEqual([['b', 3], ['2', 4], ['a', 5], ['1', 6]]);
    expect(zone!.firewallRules.map((r) => [r.ref, r.location.line, r.fieldLocations?.filter?.column])).toEqual([['x', 8, 30], ['7', 9, 30]]);
  });
});
