/**
 * YAML nested thousands of levels deep (a generated or corrupted file) is refused with one
 * positioned "nesting deeper than N levels", never "Maximum call stack size exceeded": in manifests
 * whichever reader runs (the fast reader gives up on such files and the `yaml` package's composer
 * recurses), and in the cases files of policy tests.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, formatIssueWithExcerpt, ManifestLimits, tooDeep, validateManifestText, yamlTokens } from '../../src/manifest/index.js';
import { parseCasesText } from '../../src/policy/index.js';

const Levels = 10_000;
const max = ManifestLimits.maxDepth;
const message = `nesting deeper than ${max} levels`;

/** Deep documents of every shape: flow lists and maps, block maps and lists. */
const deep: Record<string, (prefix: string) => string> = {
  'flow lists': (p) => `${p}${'['.repeat(Levels)}${']'.repeat(Levels)}\n`,
  'flow maps': (p) => `${p}${'{a: '.repeat(Levels)}1${'}'.repeat(Levels)}\n`,
  'block maps': (p) => `${p}\n${Array.from({ length: Levels }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')}\n`,
  'block lists': (p) => `${p}\n${Array.from({ length: Levels }, (_, i) => `${' '.repeat(i + 1)}-`).join('\n')}\n`,
};

describe('deeply nested YAML', () => {
  for (const [shape, make] of Object.entries(deep)) {
    it(`a manifest of ${Levels} levels of ${shape}: one positioned error`, () => {
      const result = validateManifestText(make('zone: deep.example\nfilters: '), 'deep.yaml');
      expect(result.zone).toBeUndefined();
      expect(result.issues).toHaveLength(1);
      const [issue] = result.issues;
      expect(formatIssue(issue!)).toMatch(new RegExp(`^deep\\.yaml:\\d+:\\d+: ${message} `));
      expect(issue!.message).not.toMatch(/call stack/);
      // At the first node past the limit, not where a stack ran out.
      expect(issue!.line).toBeLessThan(max + 4);
    });

    it(`a cases file of ${Levels} levels of ${shape}: one positioned error`, () => {
      const parsed = parseCasesText(make('cases: '), 'deep.tests.yaml');
      const lines = parsed.issues.map(formatIssue);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^deep\\.tests\\.yaml:\\d+:\\d+: ${message} `));
    });
  }

  it('the limit itself is fine: 64 levels read, 65 do not', () => {
    const nested = (n: number) => `zone: x.example\nfilters: ${'['.repeat(n)}${']'.repeat(n)}\n`;
    // The root map is level 0 and filters' outer list level 1, so the innermost of n lists is level n.
    expect(tooDeep(yamlTokens(nested(max)))).toBeUndefined();
    expect(tooDeep(yamlTokens(nested(max + 1)))).toBe('zone: x.example\nfilters: '.length + max);
    expect(validateManifestText(nested(max + 1), 'z.yaml').issues.map((i) => i.message)).toEqual([expect.stringContaining(message)]);
  });

  it('a JSON manifest on one line (as a generator writes it) shows a window of the line, not all of it', () => {
    const text = `{"zone": "j.example", "filters": ${'['.repeat(Levels)}${']'.repeat(Levels)}}`;
    const [issue] = validateManifestText(text, 'deep.json').issues;
    const shown = formatIssueWithExcerpt(issue!).split('\n');
    expect(shown).toHaveLength(3);
    expect(shown[1]!.length).toBeLessThan(220);
    expect(shown[1]).toMatch(/^ 1 \| …\[+…$/);
    // The caret stays under the character the column names.
    expect(shown[1]![shown[2]!.indexOf('^')]).toBe(text[issue!.column - 1]);
  });
});
