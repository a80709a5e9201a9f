/**
 * The Rulesets API (the `http_request_firewall_managed` and `http_request_firewall_custom` entry
 * points, rulesets by id, single-rule operations, versions, managed rulesets) as a zone resource
 * module.
 */
import type { ResourceModule } from '../context.js';
import { rulesetRoutes } from './handlers.js';
import { rulesetsSchema } from './store.js';

/** The Rulesets API's resource module. */
export const rulesetsResource: ResourceModule = { name: 'rulesets', schema: rulesetsSchema, routes: rulesetRoutes };

export type * from './types.js';
export { ManagedPhase } from './types.js';
export { CustomPhase } from '../../api/index.js';
export { RulesetErrors } from './constants.js';
