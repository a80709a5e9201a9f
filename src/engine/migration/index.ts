/**
 * The WAF migration as a zone resource module: the `waf_state` table (written at zone creation:
 * `waf: 'new'` makes an already-migrated zone), the check/config/status routes, and the pure state
 * machine, mapping and config derivation for tests and callers.
 */
import type { ResourceModule } from '../context.js';
import { migrationRoutes } from './handlers.js';
import { initialWafState, saveWafState, wafStateSchema } from './store.js';

/** The migration's resource module. */
export const migrationResource: ResourceModule = {
  name: 'WAF migration',
  schema: wafStateSchema,
  routes: migrationRoutes,
  onCreate(ctx) {
    saveWafState(ctx.sql, initialWafState(ctx.options.waf, ctx.now));
  },
};

export * from './state-machine.js';
export * from './owasp-mapping.js';
export { MigrationLimits, MigrationErrors } from './constants.js';
export { deriveConfig } from './config.js';
export { loadWafState, type WafStateRecord } from './store.js';
