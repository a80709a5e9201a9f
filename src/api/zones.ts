/**
 * Zones on the wire: the zone object as the real API (and the official client's `Zone` type)
 * has it, the engine's extension fields and routes (absent from `zonewall serve --strict`), the
 * list's query parameters and page sizes, and the route patterns.
 */

/** Plan tiers of a zone, cheapest first; the tier sets the rule quota and the entitlements. */
export const PlanTiers = ['free', 'pro', 'business', 'enterprise'] as const;
/** One plan tier (the real API's `plan.legacy_id`). */
export type PlanTier = (typeof PlanTiers)[number];

/** The zone's plan as the real API shows it; `legacy_id` is the tier. */
export interface ZonePlanJson {
  id: string;
  name: string;
  price: number;
  currency: string;
  frequency: string;
  is_subscribed: boolean;
  can_subscribe: boolean;
  legacy_id: PlanTier;
  legacy_discount: boolean;
  externally_managed: boolean;
}

/** A zone as `GET /zones` and `GET /zones/{id}` answer: every field the official client requires. */
export interface ZoneJson {
  id: string;
  name: string;
  account: { id: string; name: string };
  owner: { id: string | null; name: string | null; type: string };
  meta: { step: number; custom_certificate_quota: number; page_rule_quota: number; phishing_detected: boolean; cdn_only?: boolean; dns_only?: boolean; foundation_dns?: boolean };
  name_servers: string[];
  original_name_servers: string[] | null;
  original_registrar: string | null;
  original_dnshost: string | null;
  vanity_name_servers: string[];
  activated_on: string | null;
  created_on: string;
  modified_on: string;
  development_mode: number;
  status: 'initializing' | 'pending' | 'active' | 'moved';
  paused: boolean;
  type: 'full' | 'partial' | 'secondary' | 'internal';
  permissions: string[];
  plan: ZonePlanJson;
}

/** zonewall engine extension fields of a zone (left out by `serve --strict`). */
export interface ZoneExtensionJson {
  /** The plan tier, also readable from `plan.legacy_id` (which a client should prefer). */
  plan_tier: PlanTier;
}

/** The body of the engine's `POST /zones` extension. */
export interface ZoneCreateBody {
  name: string;
  plan_tier?: PlanTier;
  waf?: 'previous' | 'new';
}

/** Page sizes of the zones list (real service figures). */
export const ZonePageLimits = { defaultPerPage: 20, minPerPage: 5, maxPerPage: 50 } as const;

/** Query parameters of `GET /zones` the engine honours. */
export const ZoneListParams = { name: 'name' } as const;

/** Route patterns of zones; `:name` segments are path parameters. */
export const ZonePaths = {
  collection: '/zones',
  item: '/zones/:zone_id',
} as const;

/** zonewall engine extension routes of zones (absent from `serve --strict`). */
export const ZoneExtensionRoutes = ['POST /zones', 'DELETE /zones/:zone_id'] as const;
