/**
 * Test kit of the WAF suites (rulesets, previous WAF, migration, trace): the engine test harness
 * (real engine, real HTTP server on 127.0.0.1) plus short calls for the operations these suites use.
 */
import type { PlanTier } from '../../../src/engine/index.js';
import { result, startHarness, type Harness, type Reply } from '../helpers.js';

export { codes, result, type Reply } from '../helpers.js';

/** Ids used across the suites. */
export const Ids = {
  managed: 'efb7b8c949ac4650a09736fc376e9aee',
  owasp: '4814384a9e5d4991b9815dcfc25d2f1f',
  free: '77454fe2d30c4220b5701f6fdfb893ba',
  exposedCredentials: 'c2e184081120413c86c3ab7e14069605',
  threshold: '6179ae15870a4bb7b2d480d4843b323c',
  cloudflarePackage: '1e334934fd7ae32ad705667f8c1057aa',
  owaspPackage: 'c504870194831cd12c3fc0284f294abb',
  specialsGroup: '4096833576e7a68a222fbc5993f98101',
  wordpressGroup: 'c956a7bf4225adc26448b0badc12f17a',
  badRobotsGroup: '07d700cf30fda7548be94ff01087d0c4',
} as const;

/** A harness with WAF helpers. */
export interface WafKit {
  h: Harness;
  /** Creates a zone (default enterprise, previous WAF) and returns its id. */
  zone(name: string, plan?: PlanTier, waf?: 'previous' | 'new'): Promise<string>;
  /** PUT of the managed entry point; `query` e.g. `waf_migration=validation&phase_two=1`. */
  put(zone: string, body: unknown, query?: string): Promise<Reply>;
  getEntrypoint(zone: string): Promise<Reply>;
  check(zone: string): Promise<Reply>;
  config(zone: string): Promise<Reply>;
  status(zone: string): Promise<Reply>;
  trace(zone: string, body: unknown): Promise<Reply>;
  api: Harness['api'];
}

/** The managed entry point path of a zone. */
export function entrypointPath(zone: string): string {
  return `/zones/${zone}/rulesets/phases/http_request_firewall_managed/entrypoint`;
}

/** Starts a kit (reusing `dir` to simulate a restart). */
export async function startWafKit(dir?: string): Promise<WafKit> {
  const h = await startHarness(dir !== undefined ? { dir } : {});
  return {
    h,
    api: h.api,
    zone: async (name, plan = 'enterprise', waf) => (await h.engine.createZone(name, { plan, ...(waf ? { waf } : {}) })).id,
    put: (zone, body, query) => h.api('PUT', `${entrypointPath(zone)}${query ? `?${query}` : ''}`, body),
    getEntrypoint: (zone) => h.api('GET', entrypointPath(zone)),
    check: (zone) => h.api('GET', `/zones/${zone}/waf_migration/check?phase_two=1`),
    config: (zone) => h.api('GET', `/zones/${zone}/waf_migration/config?phase_two=1`),
    status: (zone) => h.api('GET', `/zones/${zone}/waf_migration/status`),
    trace: (zone, body) => h.api('POST', `/zones/${zone}/trace`, body),
  };
}

/** The migration config of a zone, as the GET returns it. */
export async function configOf(kit: WafKit, zone: string): Promise<{ name: string; rules: Record<string, unknown>[] }> {
  return result(await kit.config(zone));
}

/** The config body as the seed sends it in validation mode: rules without id, version and ref. */
export function withoutServerFields(config: { name: string; rules: Record<string, unknown>[] }): unknown {
  return { name: config.name, rules: config.rules.map(({ id: _i, version: _v, ref: _r, ...rest }) => rest) };
}

/** A deployment of a managed ruleset. */
export function execute(id: string, extra: Record<string, unknown> = {}, enabled = true): Record<string, unknown> {
  return { action: 'execute', expression: 'true', enabled, action_parameters: { id, ...extra } };
}
