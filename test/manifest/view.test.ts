/**
 * `entriesOf` (src/manifest/view.ts) lists a section's keys as the reader wrote them down instead
 * of asking the object: in document order, also for array-index keys (`"20"`, `"3"`), which objects
 * enumerate first in numeric order (key order is evaluation order for custom and rate limiting rules).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Locator } from '../../src/manifest/locate.js';
import { readManifestYaml } from '../../src/manifest/read.js';
import { readYaml } from '../../src/manifest/yaml-reader.js';
import { LineIndex } from '../../src/manifest/source.js';
import { Checks, entriesOf } from '../../src/manifest/view.js';
import type { ParsedDocument } from '../../src/manifest/source.js';

function checksOf(text: string, read: (text: string, lines: LineIndex) => ParsedDocument = readManifestYaml): { checks: Checks; data: Record<string, Record<string, unknown>> } {
  const lines = new LineIndex(text);
  const doc = read(text, lines);
  return { checks: new Checks(new Locator('zone.yaml', doc, lines), new Set()), data: doc.data as Record<string, Record<string, unknown>> };
}

const section = (keys: string[]): string => `zone: example.com\nfilters:\n${keys.map((k) => `  ${k}:\n    expression: "true"\n`).join('')}`;

afterEach(() => vi.restoreAllMocks());

describe('entriesOf', () => {
  it('takes the keys from the reader, in the order written, without listing the object', () => {
    const keys = ['zeta', 'a', 'f17', 'f2', '__proto__', '017', '1.5', '-1', '4294967295'];
    for (const read of [readManifestYaml, (text: string, lines: LineIndex) => readYaml(text, lines)]) {
      const { checks, data } = checksOf(section(keys), read);
      const listed = vi.spyOn(Object, 'keys');
      const entries = entriesOf(data.filters, checks);
      expect(listed).not.toHaveBeenCalled();
      listed.mockRestore();
      expect(entries.keys).toEqual(keys);
      expect(entries.keys).toEqual(Object.keys(data.filters));
      expect(entries.values).toEqual(keys.map((k) => Object.getOwnPropertyDescriptor(data.filters, k)!.value));
    }
  });

  it('keeps the order written when a key is an array index, which objects enumerate first', () => {
    for (const read of [readManifestYaml, (text: string, lines: LineIndex) => readYaml(text, lines)]) {
      for (const keys of [['b', '10', 'a', '2', '0'], ['x', '4294967294'], ['20', '3']]) {
        const { checks, data } = checksOf(section(keys), read);
        expect(checks.writtenKeys(data.filters)).toEqual(keys);
        expect(entriesOf(data.filters, checks).keys).toEqual(keys);
      }
    }
    expect(Object.keys(checksOf(section(['b', '10', 'a', '2', '0'])).data.filters)).toEqual(['0', '2', '10', 'b', 'a']);
  });
});
