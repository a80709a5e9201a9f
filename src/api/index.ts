/**
 * The v4 wire contract shared by the engine (server) and `providers/v4` (client): one file per
 * resource family, re-exported here. Types and constants only; imports nothing of zonewall.
 */
export * from './rulesets.js';
export * from './page-rules.js';
export * from './migration.js';
