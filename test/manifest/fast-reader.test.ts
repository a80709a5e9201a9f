import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareReaders } from './helpers/compare-readers.js';

const plainWords = [
  'a', 'zone', 'true', 'True', 'FALSE', 'null', 'Null', '~', '12', '-3', '+4', '0x1F', '0o17', '017', '1e3', '1.5e-3', '.5', '5.',
  '.inf', '-.Inf', '.NaN', 'a b', 'x: y', 'a #b', 'a#b', '#x', 'http.host eq "x"', "it's", '{a}', '[1]', '- a', '&a', '*a', '!t',
  '|', '>', '@x', '`x`', '%x', 'a:', 'a:b', '"q"', "'q'", 'ip.src in {192.0.2.0/24}', 'not ssl', '12:30', 'é ü', 'a  b',
  // Colons inside plain scalars (IPv6 addresses in a burst's `vary` lists), and ones that end them.
  '2001:db8::1', '::1', ':a', 'a::', 'a:-', 'a:"b"', 'a:#b', 'a: :b', '1:2:3',
];
const keys = ['a', 'b', 'zone', 'k.e-y', '00123', 'true', '$schema', '"q k"', "'s k'", '"a\\"b"', 'a b', '-x', '2', 'x/y', '"a"', 'a'];

const scalar = fc.oneof(
  fc.constantFrom(...plainWords),
  fc.constantFrom(...plainWords).map((w) => JSON.stringify(w)),
  fc.constantFrom('"a\\tb"', '"\\u0041\\x42"', '"\\/"', '"\\q"', '"unterminated', "'it''s'", "'x'", "''", '""', '"a" # c', '"a"b'),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
);

type Tree = { t: 'scalar'; v: string } | { t: 'block'; header: string; lines: string[] } | { t: 'map'; entries: [string, Tree][]; flow: boolean }
  | { t: 'seq'; items: Tree[]; flow: boolean };

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((v): Tree => ({ t: 'scalar', v })),
    fc.record({
      header: fc.constantFrom('|', '|-', '|+', '>', '>-', '>+', '| # c', '|2'),
      lines: fc.array(fc.constantFrom('x', 'y z', '  more', '', '# not a comment', 'a: b', '- c'), { minLength: 1, maxLength: 4 }),
    }).map((b): Tree => ({ t: 'block', ...b })),
    fc.record({ entries: fc.array(fc.tuple(fc.constantFrom(...keys), tie('node')), { maxLength: 4 }), flow: fc.boolean() })
      .map((m): Tree => ({ t: 'map', ...m })),
    fc.record({ items: fc.array(tie('node'), { maxLength: 3 }), flow: fc.boolean() }).map((s): Tree => ({ t: 'seq', ...s })),
  ),
})).node;

function flow(node: Tree): string {
  if (node.t === 'scalar') return node.v;
  if (node.t === 'block') return JSON.stringify(node.lines.join(' '));
  // After a quoted key the value may touch the colon (JSON in YAML): written so for some keys.
  if (node.t === 'map') return `{${node.entries.map(([k, v]) => `${k}:${/^["']/.test(k) && k.length % 2 === 0 ? '' : ' '}${flow(v)}`).join(', ')}}`;
  return `[${node.items.map(flow).join(', ')}]`;
}

/** Renders a tree as block YAML; `indent` is the owner's indentation; returns the text after "key:". */
function render(node: Tree, indent: number, step: number, compactSeq: boolean): string {
  const pad = ' '.repeat(indent + step);
  if (node.t === 'scalar') return ` ${node.v}\n`;
  if (node.t === 'block') return ` ${node.header}\n${node.lines.map((l) => (l === '' ? '' : pad + l)).join('\n')}\n`;
  if (node.flow || (node.t === 'map' ? node.entries.length === 0 : node.items.length === 0)) return ` ${flow(node)}\n`;
  if (node.t === 'map') return `\n${node.entries.map(([k, v]) => `${pad}${k}:${render(v, indent + step, step, compactSeq)}`).join('')}`;
  const seqPad = compactSeq ? ' '.repeat(indent) : pad;
  const inner = compactSeq ? indent : indent + step;
  return `\n${node.items.map((item) => `${seqPad}-${render(item, inner, step, compactSeq)}`).join('')}`;
}

describe('fast YAML reader', () => {
  it('reads every example exactly like the yaml package', () => {
    for (const f of readdirSync('examples').filter((n) => n.endsWith('.yaml'))) {
      expect(compareReaders(readFileSync(`examples/${f}`, 'utf8')), f).toBeUndefined();
    }
  });

  it.each([
    ['list at its key\'s indentation', 'a:\n- 1\n- x: 2\n  y: 3\nb: 2\n'],
    ['keep chomping at the end', 'a: |+\n  k\n\n'],
    ['keep chomping before a key', 'a: |+\n  k\n\nb: 1\n'],
    ['# inside a block scalar', 'a: |-\n  k\n  # not a comment\n'],
    ['folded', 'a: >\n  x\n  y\n'],
    ['escapes', 'a: "x\\ty\\u0041"\nb: \'it\'\'s\'\n'],
    ['empty values', 'a:\n  b:\nc: 1'],
    ['document start', '---\na: 1'],
    ['JSON flows (a value right after a quoted key\'s colon)', 'a: {"b":"c","d":1,"e":[1,"x"],"f":{"g":null}}\nh: [{"i":true}]\nj: {\'k\':l, "m": n}\n'],
    ['duplicate keys', 'a: 1\na: {b: 1, b: 2}\nc: {x: 1, x: 2}\n'],
    ['duplicate keys in block maps', 'a:\n  b: 1\n  c: 2\n  b: 3\nd: 4\na: 5\n'],
    ['duplicate keys in a large block map', `${Array.from({ length: 12 }, (_, i) => `k${i}: ${i}`).join('\n')}\nk3: x\nk11: y\n`],
    ['inherited names as keys', 'constructor: 1\ntoString: 2\n__proto__: 3\nconstructor: 4\n__proto__: 5\n'],
    ['inherited names as keys of a large map', `${Array.from({ length: 12 }, (_, i) => `k${i}: ${i}`).join('\n')}\nconstructor: 1\n__proto__: 2\n__proto__: 3\nvalueOf: 4\n`],
    ['core schema scalars', 'a: [1, 2.5, .inf, ~, true, 0x1F, 0o7, "q", 017]\n'],
    ['keys as written', 'x: 00123\n00123: y\n"k": 1\n'],
    ['comments', '# head\na: 1 # c\n  # indented\nb:  x y  \n'],
    ['block scalar with blank lines', 'a: |\n  x\n\n  y\n\n\nd: 1\n'],
    ['nested maps', 'a:\n  b:\n    c: d\n  e: f\ng: h\n'],
  ])('agrees with the yaml package: %s', (_name, text) => {
    expect(compareReaders(text)).toBeUndefined();
  });

  it('agrees with the yaml package on generated documents, or declines them', () => {
    let handled = 0;
    fc.assert(fc.property(tree, fc.constantFrom(2, 4), fc.boolean(), (t, step, compact) => {
      const body = render({ t: 'map', entries: [['root', t]], flow: false }, -step, step, compact);
      const verdict = compareReaders(body.replace(/^\n/, ''));
      if (verdict !== 'bail') handled++;
      expect(verdict === 'bail' ? undefined : verdict).toBeUndefined();
    }), { numRuns: 1500 });
    // The generator mostly writes YAML the fast reader supports; it must not decline everything.
    expect(handled).toBeGreaterThan(200);
  });

  it('reads a flow list of IPv6 addresses itself (a `:` inside a plain scalar), as the yaml package does', () => {
    expect(compareReaders('ip: [2001:db8::1, ::1, 198.51.100.7, fe80::a:b]\nh: {k: a:b}\n')).toBeUndefined();
  });

  it('reads flows over several lines (a vary list as a JSON array, one value a line) as the yaml package does, or declines them', () => {
    expect(compareReaders('ip: [\n  "192.0.2.1",\n  2001:db8::1\n]\nx:\n  - k: {\n      a: b,\n      c: [1,\n        2]\n    }\n')).toBeUndefined();
    const item = fc.constantFrom('a', '"q"', "'s'", '1', '2001:db8::1', '[b, c]', '{k: v}', 'a b', '[\n    b,\n    c\n  ]', '{\n      k: v}', '[]',
      'x # c', '"m\n  n"', 'p\n  q', 'k: v', '...', '---');
    const sep = fc.constantFrom(', ', ',\n  ', ',\n    ', ',\n', '\n  ,', ',\n\n  ', ',\n ');
    const owner = fc.constantFrom('a: ', 'x:\n  b: ', 'x:\n  - ', '- ', 'x:\n  - k: ');
    const close = fc.constantFrom('', '\n', '\n  ', '\n ', '\n    ');
    const after = fc.constantFrom('\n', '\nb: c\n', '\n  d: e\n', ' # c\n', ', z\n', '');
    let handled = 0;
    fc.assert(fc.property(owner, fc.array(fc.tuple(item, sep), { maxLength: 5 }), item, close, after, (o, items, last, c, a) => {
      const verdict = compareReaders(`${o}[${items.map(([i, s]) => i + s).join('')}${last}${c}]${a}`);
      if (verdict !== 'bail') handled++;
      expect(verdict === 'bail' ? undefined : verdict).toBeUndefined();
    }), { numRuns: 3000 });
    expect(handled).toBeGreaterThan(100);
  });

  it('agrees with the yaml package on arbitrary text, or declines it', () => {
    const chars = fc.constantFrom('a', 'b', ':', ' ', ' ', '\n', '-', '"', "'", '#', '[', ']', '{', '}', ',', '|', '>', '1', '\\', 'x');
    fc.assert(fc.property(fc.array(chars, { maxLength: 60 }).map((c) => c.join('')), (text) => {
      const verdict = compareReaders(text);
      expect(verdict === 'bail' ? undefined : verdict).toBeUndefined();
    }), { numRuns: 3000 });
  });
});
