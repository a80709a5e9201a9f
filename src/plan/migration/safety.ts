/**
 * The danger finding of a WAF migration step: every step forward changes what the zone runs.
 */
import type { Change } from '../change.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';

/** Danger finding of a migration change. */
export function migrationChangeFindings(c: Change): Finding[] {
  if (c.action === 'delete') return [];
  const to = c.after?.state;
  const what = to === 'new_only'
    ? 'finishes the WAF migration: the previous WAF is switched off, irreversibly'
    : 'starts the WAF migration in validation mode: the new WAF runs before the previous one';
  return [finding('flips-waf-migration', `waf_migration: ${String(c.before?.state)} -> ${String(to)} ${what}`, { kind: c.kind, ref: c.ref })];
}

