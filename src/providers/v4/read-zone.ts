/**
 * Reads what the planner needs about a zone in one pass: one paginated list per resource type
 * (filters, firewall rules, previous WAF packages, and per package its groups and rules, URI
 * overrides), the managed and custom phase entry points and the migration status. Filters and
 * firewall rules are always read; every other section only when the caller asks for it
 * (`sections`, from the manifest: `plan/reads.ts`) and the zone's status does not rule it out (a
 * zone that has finished migrating has no previous WAF to read). Independent reads run concurrently.
 * Each kind's reads are in its file (`firewall.ts`, `managed-rules.ts`, `previous-waf.ts`, …).
 */
import type { LiveCustomEntrypoint, LiveFilter, LiveFirewallRule, LiveSection, LiveZone, LiveZoneInfo } from '../../plan/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { CustomPhase, V4Paths } from './constants.js';
import { readEntrypoint } from './managed-rules.js';
import { readMigrationConfig, readLiveMigrationStatus } from './migration.js';
import { readPageRules } from './page-rules.js';
import { readPreviousWaf } from './previous-waf.js';
import { readPhase } from './rules-phase.js';
import { readRateLimitEntrypoint } from './rate-limiting.js';

export { normalizeMigrationStatus } from './migration.js';

/**
 * Reads a zone's live state: every section, or only `sections` (plus filters and firewall rules).
 * A section not read is `null` (Page Rules: undefined) and missing from `LiveZone.sections`. The
 * proposed migration configuration is read only when asked for by name (`migration_config`) and the
 * zone has not finished migrating: a plan taking a migration step PUTs it.
 */
export async function readZone(client: V4Client, zone: LiveZoneInfo, sections?: readonly LiveSection[]): Promise<LiveZone> {
  const id = zone.id;
  const wants = (s: LiveSection) => sections === undefined || sections.includes(s);
  // The status first: it decides whether the previous WAF still answers.
  const migration = wants('migration') || sections?.includes('migration_config') === true ? await readLiveMigrationStatus(client, id) : null;
  const migrating = migration !== null && migration.waf_state !== 'new_only';
  // Started before the others so it runs beside them.
  const rateLimitRead = wants('rate_limiting_rules') ? readRateLimitEntrypoint(client, id) : undefined;
  rateLimitRead?.catch(() => undefined); // awaited below; handled here so a failure elsewhere first leaves no unhandled rejection
  const [filters, firewallRules, entrypoint, customEntrypoint, previousWaf, migrationConfig, pageRules] = await Promise.all([
    client.listAll<LiveFilter>(V4Paths.filters(id), {}, undefined, AnswerShapes.filter),
    client.listAll<LiveFirewallRule>(V4Paths.firewallRules(id), {}, undefined, AnswerShapes.firewallRule),
    wants('entrypoint') ? readEntrypoint(client, id) : null,
    wants('custom_rules') ? readPhase<LiveCustomEntrypoint>(client, id, CustomPhase) : undefined,
    wants('previous_waf') && migration?.waf_state !== 'new_only' ? readPreviousWaf(client, id) : null,
    sections?.includes('migration_config') === true && migrating ? readMigrationConfig(client, id) : undefined,
    wants('page_rules') ? readPageRules(client, id) : undefined,
  ]);
  const live: LiveZone = { zone, filters, firewallRules, entrypoint, previousWaf, migration };
  // Left out (undefined) when not read: the planner then leaves the custom phase alone.
  if (customEntrypoint !== undefined) live.customEntrypoint = customEntrypoint;
  if (migrationConfig !== undefined) live.migrationConfig = migrationConfig;
  if (pageRules !== undefined) live.pageRules = pageRules;
  if (rateLimitRead !== undefined) live.rateLimitEntrypoint = await rateLimitRead;
  if (sections !== undefined) live.sections = [...sections];
  return live;
}
