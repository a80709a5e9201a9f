/**
 * zonewall's library facade: re-exports only. Each module is exported as a namespace so that names
 * stay unambiguous (`engine.ApiError`, `providers.ServiceError`); the standalone layers are also
 * published as their own entry points (`zonewall/storage`, `zonewall/expr`, `zonewall/engine`).
 *
 * @example
 * import { manifest, plan } from 'zonewall';
 * const { zones } = await manifest.loadManifests(['zone.yaml']);
 */
export * from './errors.js';
export * as expr from './expr/index.js';
export * as storage from './storage/index.js';
export * as engine from './engine/index.js';
export * as manifest from './manifest/index.js';
export * as providers from './providers/index.js';
export * as plan from './plan/index.js';
export * as apply from './apply/index.js';
export * as migrate from './migrate/index.js';
export * as policy from './policy/index.js';
