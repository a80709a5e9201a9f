/**
 * The zone object on the wire: every field the real API (and the official client's `Zone` type)
 * has, so typed code reading `zone.account.id` or `zone.name_servers` works against the engine.
 * What the engine does not model gets the value a fresh, active, full-setup zone has: no original
 * registrar or DNS host, development mode off, the engine's one account and owner. `plan_tier` is
 * the engine's extension (left out by `serve --strict`); clients read the tier from
 * `plan.legacy_id`.
 */
import type { PlanTier, ZoneExtensionJson, ZoneJson, ZonePlanJson } from '../../api/index.js';
import type { AccountInfo, ZoneInfo } from '../types.js';
import { DefaultAccount, accountIdOf } from './accounts.js';

/** The engine's default account (zones created without an account belong to it). */
export const EngineAccount = { id: DefaultAccount.id, name: DefaultAccount.name } as const;

/** Name servers the engine reports for every zone (the service's `<name>.ns.cloudflare.com` style). */
const NameServers = ['ada.ns.cloudflare.com', 'lee.ns.cloudflare.com'];

/** Plans by tier; the free plan's id is the real one, the others are zonewall's (the real ids are account-specific). */
const Plans: Record<PlanTier, Omit<ZonePlanJson, 'legacy_id'>> = {
  free: { id: '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee', name: 'Free Website', price: 0, currency: 'USD', frequency: '', is_subscribed: true, can_subscribe: false, legacy_discount: false, externally_managed: false },
  pro: { id: 'a577b510288e82b26486f7f0a0b3b4b7', name: 'Pro Website', price: 20, currency: 'USD', frequency: 'monthly', is_subscribed: true, can_subscribe: true, legacy_discount: false, externally_managed: false },
  business: { id: 'bc1b4ea7a1b8b7e1a6b0b8f4f0d0c2b1', name: 'Business Website', price: 200, currency: 'USD', frequency: 'monthly', is_subscribed: true, can_subscribe: true, legacy_discount: false, externally_managed: false },
  enterprise: { id: 'e0e4c2b1a9f3d7c5b8a6e4f2d0c8b6a4', name: 'Enterprise Website', price: 0, currency: 'USD', frequency: 'monthly', is_subscribed: true, can_subscribe: false, legacy_discount: false, externally_managed: true },
};

/** Page rules each plan allows (real figures). */
const PageRuleQuota: Record<PlanTier, number> = { free: 3, pro: 20, business: 50, enterprise: 125 };

/** The v4 shape of a zone, plus zonewall's `plan_tier`. */
export function zoneToJson(z: ZoneInfo, account?: AccountInfo): ZoneJson & ZoneExtensionJson {
  return {
    id: z.id,
    name: z.name,
    status: z.status,
    paused: false,
    type: 'full',
    development_mode: 0,
    name_servers: [...NameServers],
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    vanity_name_servers: [],
    created_on: z.created_on,
    modified_on: z.created_on,
    activated_on: z.created_on,
    meta: { step: 2, custom_certificate_quota: 0, page_rule_quota: PageRuleQuota[z.plan], phishing_detected: false },
    owner: { id: null, name: null, type: 'user' },
    account: account !== undefined && account.id === accountIdOf(z) ? { id: account.id, name: account.name } : { id: accountIdOf(z), name: accountIdOf(z) === EngineAccount.id ? EngineAccount.name : '' },
    permissions: ['#zone:read', '#zone:edit', '#waf:read', '#waf:edit'],
    plan: { ...Plans[z.plan], legacy_id: z.plan },
    plan_tier: z.plan,
  };
}
