/**
 * Which optional sections of a zone a plan needs read, from the manifest alone. As in Terraform, a
 * section the manifest leaves out is not managed: its live objects are neither planned nor reported,
 * so reading them would only spend the account's request budget (1,200 per 5 minutes). In
 * particular a zone still on the previous WAF (`previous only`) whose manifest has no
 * `previous_waf` and no `waf_migration` keeps its previous WAF unmanaged, and nothing of it is read.
 * A new manifest section adds its live section here: "read only if the manifest needs it".
 */
import type { DesiredZone } from '../manifest/index.js';
import type { LiveSection } from './live.js';

/**
 * The optional sections `diffZone` looks at for this manifest.
 * - `managed_rules` needs the managed entry point (its rules are diffed, unmatched ones reported);
 * - `custom_rules` needs the custom phase entry point (the same, for WAF custom rules);
 * - `previous_waf` needs the previous WAF, and the migration status (a migrated zone has none);
 * - `waf_migration` needs the status, the entry point (re-sent by the migration step) and the
 *   previous WAF's URI overrides (they block the migration); a step forward (`validation`,
 *   `pending`) also needs the service's proposed configuration, which it PUTs;
 * - `page_rules` needs the zone's Page Rules.
 * @example await provider.readZone(zone.id, readsFor(desired))
 */
export function readsFor(desired: DesiredZone): LiveSection[] {
  const sections = new Set<LiveSection>();
  if (desired.managedRules !== undefined) sections.add('entrypoint');
  if (desired.customRules !== undefined) sections.add('custom_rules');
  if (desired.previousWaf !== undefined) {
    sections.add('migration');
    sections.add('previous_waf');
  }
  if (desired.wafMigration !== undefined) {
    sections.add('migration');
    sections.add('entrypoint');
    sections.add('previous_waf');
  }
  // A step forward PUTs the service's proposed configuration (skip rules included): read it.
  if (desired.wafMigration === 'validation' || desired.wafMigration === 'pending') sections.add('migration_config');
  if (desired.pageRules !== undefined) sections.add('page_rules');
  return [...sections];
}
