/**
 * The WAF migration's status, and the service's proposed new WAF configuration: the migration
 * kind's part of `LiveZone`.
 */
import type { WafState } from '../../api/index.js';
import type { EntrypointBody } from '../managed-rules/live.js';

/** Which WAF versions are active: the seed's states `previous only`, `both`, `new only` (`src/api`'s). */
export type { WafState };

/** The migration status operation's answer. */
export interface LiveMigrationStatus {
  migration_state: string;
  old_waf_status: 'enabled' | 'disabled';
  new_waf_status: 'enabled' | 'disabled';
  /** zonewall engine field: the seed's state, derived by providers when the service lacks it. */
  waf_state: WafState;
}

declare module '../live.js' {
  interface LiveZone {
    migration: LiveMigrationStatus | null;
    /**
     * The service's proposed new WAF configuration ("Get new WAF configuration"), read only when the
     * plan may take a migration step (section `migration_config`, read only when named) and the zone has not
     * finished migrating: a step PUTs it (skip rules included), as `zonewall migrate` does. Undefined
     * when not read; null when the service has none for the zone.
     */
    migrationConfig?: EntrypointBody | null;
  }
  interface LiveSectionRegistry {
    migration: true;
    migration_config: true;
  }
}
