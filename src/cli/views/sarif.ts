/**
 * `zonewall validate --format sarif`: the findings as a SARIF 2.1.0 log (schemas/sarif-2.1.0.schema.json),
 * one run of the `zonewall` driver with every check as a rule (id, name, description, default level,
 * help link) and each finding as a result with its rule id, level, message and the manifest region
 * (1-based line and column, UTF-16 code units as the manifest errors count them). A finding about a
 * whole file (unreadable, empty directory) has no region. Paths are relative to the working
 * directory with `/` separators, as code scanning services resolve them against the checkout.
 */
import path from 'node:path';
import type { LintFinding, LintRule, ManifestIssue } from '../../manifest/index.js';
import { AllLintRules } from '../../manifest/index.js';
import { ZonewallVersion } from './json.js';

/** Where each check is documented, in the repository (zonewall has no published documentation site). */
const DocsPath = 'docs/manifest.md#lint-checks';

/** A SARIF result; only the members zonewall writes. */
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: 'error' | 'warning' | 'note';
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number; endColumn?: number } } }[];
}

function uriOf(file: string, cwd: string): string {
  const rel = path.isAbsolute(file) ? path.relative(cwd, file) : file;
  return (rel.startsWith('..') ? path.resolve(cwd, file) : rel).split(path.sep).join('/');
}

function resultOf(issue: ManifestIssue, rule: LintRule, cwd: string): SarifResult {
  const region = issue.line > 0
    ? { startLine: issue.line, startColumn: Math.max(1, issue.column), ...(issue.length !== undefined && issue.length > 0 ? { endColumn: Math.max(1, issue.column) + issue.length } : {}) }
    : undefined;
  return {
    ruleId: rule.id,
    ruleIndex: AllLintRules.indexOf(rule),
    level: rule.level,
    message: { text: issue.path === '' ? issue.message : `${issue.path}: ${issue.message}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(issue.file, cwd) }, ...(region !== undefined ? { region } : {}) } }],
  };
}

/** What the log holds: errors (ZW001), warnings with their check, and the linter's findings. */
export interface SarifInput {
  errors: readonly ManifestIssue[];
  warnings: readonly { issue: ManifestIssue; rule: LintRule }[];
  lint: readonly LintFinding[];
}

/**
 * The SARIF 2.1.0 log of a validation.
 * @example JSON.stringify(sarifLog({ errors, warnings: [], lint: [] }, process.cwd()))
 */
export function sarifLog(input: SarifInput, errorRule: LintRule, cwd: string): Record<string, unknown> {
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'zonewall',
          version: ZonewallVersion,
          rules: AllLintRules.map((r) => ({
            id: r.id, name: r.name, shortDescription: { text: r.description }, help: { text: `${r.description} See ${DocsPath}.` }, defaultConfiguration: { level: r.level },
          })),
        },
      },
      columnKind: 'utf16CodeUnits',
      results: [
        ...input.errors.map((e) => resultOf(e, errorRule, cwd)),
        ...input.warnings.map((w) => resultOf(w.issue, w.rule, cwd)),
        ...input.lint.map((f) => resultOf(f, f.rule, cwd)),
      ],
    }],
  };
}
