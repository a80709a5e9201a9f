/**
 * The v4 wire contract, written once: request and response types, route patterns, query
 * parameters, error codes with their HTTP statuses, and the envelope. Shared by the server
 * (`engine`) and the client (`providers/v4`). Types and `as const` constants only, no behaviour,
 * except the one firewall rule evaluation order (`firewall-order.ts`) every layer must share;
 * imports nothing of zonewall.
 */
export * from './envelope.js';
export * from './errors.js';
export * from './zones.js';
export * from './filters.js';
export * from './firewall-rules.js';
export * from './firewall-order.js';
export * from './rule-fields.js';
export * from './managed-rules.js';
export * from './custom-rules.js';
export * from './rulesets.js';
export * from './rate-limiting.js';
export * from './managed-catalog.js';
export * from './page-rules.js';
export * from './migration.js';
export * from './trace.js';
export * from './trace-burst.js';
export * from './lists.js';
export * from './dry-run.js';
export * from './request-tracer.js';
export * from './plan-gated-fields.js';
export * from './list-items.js';
