/**
 * zonewall's library facade: re-exports only. Each module's own `index.ts` is its public surface.
 */
export * from './errors.js';
