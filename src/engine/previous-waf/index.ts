/**
 * The previous WAF as a zone resource module: its tables and the packages, groups, rules, URI-based
 * overrides and `waf` setting routes. Settings and evaluation helpers are exported for the
 * migration and the trace.
 */
import type { ResourceModule } from '../context.js';
import { overrideRoutes } from './handlers-overrides.js';
import { packageRoutes } from './handlers-packages.js';
import { settingRoutes } from './handlers-setting.js';
import { previousWafSchema } from './store.js';

/** The previous WAF's resource module. */
export const previousWafResource: ResourceModule = {
  name: 'previous WAF',
  schema: previousWafSchema,
  routes: [...packageRoutes, ...overrideRoutes, ...settingRoutes],
};

export { loadSettings, countOverrides } from './store.js';
export * from './model.js';
