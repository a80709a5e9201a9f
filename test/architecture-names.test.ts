/**
 * A function declared under one exported name in two places reads as one piece of logic to a reader
 * (and to `duplicates`) when it is two. These were: the same logic now serves from one place
 * (`format` of src/expr, the validators' `builtModule`), the rest were renamed to say what differs.
 * A fact of the public API the engine and the client both use (a ruleset id, a phase name, the
 * previous WAF's defaults) is declared once, in `src/api`, and imported (or re-exported) from there.
 *
 * Declared in several places on purpose, and so left out of the second check:
 * - `command`: every CLI command module (`src/cli/commands/<name>.ts`) exports its `command`, a
 *   uniform interface the CLI registers;
 * - `finding`: every plan kind's `findings.ts` exports its own finding builder (`findingsOf` of its
 *   codes), used inside that kind's folder only; the shared codes' builder is `sharedFinding`;
 * - `owaspOverrides`: the engine (the model of the service's migration) and src/migrate (the
 *   client's) keep separate copies of that behaviour.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const Names = [
  'readMigrationStatus', 'deletePageRule', 'jsonType', 'lockDir', 'formatValue', 'format', 'aheadOfTimeModule', 'gatedFieldProblems',
  'CountingPhase', 'FreeRulesetId', 'OverrideActions', 'OwaspRulesetId', 'OwaspScoreThresholds', 'PreviousWafDefaults', 'RuleFields',
  'SkipPhases', 'accountRoutes', 'normalizeOverrides', 'ruleView', 'Sensitivity', 'ActionMode', 'PreviousWafSettings', 'ManagedRulesetAlias',
  'RulesetErrorKind', 'RulePosition', 'WafState', 'Envelope', 'SkipParameters', 'ManagedRuleAction', 'CustomEntrypoint', 'ZonePlanJson', 'LiveAccount',
];
/** Exported value names declared in several files on purpose (see above). */
const Uniform = new Set(['command', 'finding', 'owaspOverrides']);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('architecture: one exported declaration a name', () => {
  const files = tsFiles(src).map((f) => ({ file: relative(src, f), text: readFileSync(f, 'utf8') }));

  it.each(Names)('%s is declared and exported in one file at most', (name) => {
    const declared = new RegExp(`^export (?:async )?(?:function|const|let|class|interface|type|enum) ${name}\\b`, 'm');
    expect(files.filter((f) => declared.test(f.text)).map((f) => f.file).length).toBeLessThanOrEqual(1);
  });

  it('no other exported function, constant or class is declared in two files', () => {
    const where = new Map<string, string[]>();
    for (const f of files) {
      for (const m of f.text.matchAll(/^export (?:async )?(?:function\*? |const |let |class |abstract class )([A-Za-z_$][\w$]*)/gm)) {
        where.set(m[1]!, [...(where.get(m[1]!) ?? []), f.file]);
      }
    }
    expect([...where].filter(([name, in_]) => in_.length > 1 && !Uniform.has(name))).toEqual([]);
  });
});
