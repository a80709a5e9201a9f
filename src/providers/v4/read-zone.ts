/**
 * Reads what the planner needs about a zone in one pass: one paginated list per resource type
 * (filters, firewall rules, previous WAF packages, and per package its groups and rules, URI
 * overrides), the managed and custom phase entry points and the migration status. Filters and
 * firewall rules are always read; every other section only when the caller asks for it
 * (`sections`, from the manifest: `plan/reads.ts`) and the zone's status does not rule it out (a
 * zone that has finished migrating has no previous WAF to read). Independent reads run concurrently.
 */
import type {
  EntrypointBody,
  LiveCustomEntrypoint,
  LiveEntrypoint,
  LiveFilter,
  LiveFirewallRule,
  LiveMigrationStatus,
  LivePageRule,
  LivePreviousWaf,
  LiveSection,
  LiveWafGroup,
  LiveWafOverride,
  LiveWafPackage,
  LiveWafRule,
  LiveZone,
  LiveZoneInfo,
  WafState,
} from '../../plan/index.js';
import { AuthErrorCodes, WafStates as ApiWafStates } from '../../api/index.js';
import type { V4Client } from './client.js';
import { CustomPhase, V4Limits, V4Paths } from './constants.js';
import { mapLimit } from './concurrency.js';
import { readPhase } from './rules-phase.js';
import { ServiceError } from './errors.js';

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
  const migration = wants('migration') || sections?.includes('migration_config') === true ? await readMigrationStatus(client, id) : null;
  const migrating = migration !== null && migration.waf_state !== 'new_only';
  const [filters, firewallRules, entrypoint, customEntrypoint, previousWaf, migrationConfig, pageRules] = await Promise.all([
    client.listAll<LiveFilter>(V4Paths.filters(id)),
    client.listAll<LiveFirewallRule>(V4Paths.firewallRules(id)),
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
  if (sections !== undefined) live.sections = [...sections];
  return live;
}

/** The zone's Page Rules (one unpaginated list), or undefined when the service has no such API (404). */
export async function readPageRules(client: V4Client, zoneId: string): Promise<LivePageRule[] | undefined> {
  try {
    const rules = await client.result<LivePageRule[]>('GET', V4Paths.pageRules(zoneId));
    return Array.isArray(rules) ? rules : [];
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return undefined;
    throw err;
  }
}

/** The proposed new WAF configuration, or null when the service refuses it for the zone (a 4xx). */
export async function readMigrationConfig(client: V4Client, zoneId: string): Promise<EntrypointBody | null> {
  try {
    return await client.result<EntrypointBody>('GET', V4Paths.migrationConfig(zoneId), { query: { phase_two: 1 } });
  } catch (err) {
    if (err instanceof ServiceError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429) return null;
    throw err;
  }
}

/**
 * The `http_request_firewall_managed` entry point, or null when the zone has none yet (404
 * 10003), or when the service has no rulesets API for it at all (404 with another code).
 */
export async function readEntrypoint(client: V4Client, zoneId: string): Promise<LiveEntrypoint | null> {
  try {
    return await client.result<LiveEntrypoint>('GET', V4Paths.entrypoint(zoneId));
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}

/**
 * The previous WAF: packages, then each package's groups and rules, and the URI overrides. Null
 * when the service refuses the packages list with a 4xx: the zone has migrated, or its plan has no
 * previous WAF (Pro and higher only), so there is nothing to manage.
 */
export async function readPreviousWaf(client: V4Client, zoneId: string): Promise<LivePreviousWaf | null> {
  let packages: LiveWafPackage[];
  try {
    packages = await client.listAll<LiveWafPackage>(V4Paths.wafPackages(zoneId));
  } catch (err) {
    if (previousWafUnavailable(err)) return null;
    throw err;
  }
  const [perPackage, overrides] = await Promise.all([
    mapLimit(packages, V4Limits.readConcurrency, async (p) => {
      const [groups, rules] = await Promise.all([
        client.listAll<LiveWafGroup>(V4Paths.wafGroups(zoneId, p.id)),
        client.listAll<LiveWafRule>(V4Paths.wafRules(zoneId, p.id)),
      ]);
      return { groups, rules };
    }),
    client.listAll<LiveWafOverride>(V4Paths.wafOverrides(zoneId)),
  ]);
  return {
    packages,
    groups: perPackage.flatMap((p) => p.groups),
    rules: perPackage.flatMap((p) => p.rules),
    overrides,
  };
}


/**
 * A 4xx refusal of the previous WAF's package list that means "no previous WAF here": the engine's
 * `V4Codes.previousWafRetired` / `previousWafUnavailable`, or any other service's 4xx that is not
 * about credentials (other services word it differently; the zone was already resolved, so a
 * refusal here is about the previous WAF, not about access to the zone).
 */
function previousWafUnavailable(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  if (err.status < 400 || err.status >= 500 || err.status === 401 || err.status === 429) return false;
  // Auth refusals must surface: they mean the credential lacks a permission, not that the WAF is gone.
  return !AuthErrorCodes.some((code) => err.hasCode(code));
}

/** The migration status, or null when the service has no migration API for the zone (404). */
export async function readMigrationStatus(client: V4Client, zoneId: string): Promise<LiveMigrationStatus | null> {
  try {
    const raw = await client.result<Partial<LiveMigrationStatus> & Record<string, unknown>>('GET', V4Paths.migrationStatus(zoneId));
    return normalizeMigrationStatus(raw);
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}

const WafStates: readonly WafState[] = ApiWafStates;

/**
 * Fills `waf_state` when the service does not send it (only the zonewall engine does): the
 * previous WAF switched off means the migration finished; both on means validation mode.
 */
export function normalizeMigrationStatus(raw: Partial<LiveMigrationStatus> & Record<string, unknown>): LiveMigrationStatus {
  const oldStatus = raw.old_waf_status === 'disabled' ? 'disabled' : 'enabled';
  const newStatus = raw.new_waf_status === 'enabled' ? 'enabled' : 'disabled';
  const derived: WafState = oldStatus === 'disabled' ? 'new_only' : newStatus === 'enabled' ? 'both' : 'previous_only';
  const state = WafStates.includes(raw.waf_state as WafState) ? (raw.waf_state as WafState) : derived;
  return {
    ...raw,
    migration_state: typeof raw.migration_state === 'string' ? raw.migration_state : 'start',
    old_waf_status: oldStatus,
    new_waf_status: newStatus,
    waf_state: state,
  };
}
