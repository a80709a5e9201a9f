/**
 * Wire contract of the Rulesets API at zone level, for the two phases zonewall serves: the
 * `http_request_firewall_managed` entry point (execute/skip rules deploying managed rulesets) and the
 * `http_request_firewall_custom` entry point (WAF custom rules). Route patterns, query parameters,
 * rulesets, request bodies and error codes with their HTTP statuses (the rules of each phase are in
 * `managed-rules.ts` and `custom-rules.ts`, their common fields in `rule-fields.ts`); types and `as const`
 * constants only, shared by the engine (server) and `providers/v4` (client). Facts come from
 * `reference/custom-rules.md` and `reference/api-facts.md`; codes the real API does not publish are
 * zonewall's (marked below).
 */
import type { BlockRule, CustomRule, PlainCustomRule, SkipRule } from './custom-rules.js';
import type { ManagedRule } from './managed-rules.js';
import { RatelimitPhase } from './rate-limiting.js';
import type { RuleCommonFields, RuleServerFields } from './rule-fields.js';

// ---------------------------------------------------------------------------------------------
// Phases, kinds, routes, query parameters

/** The managed rules phase (the new WAF's managed rulesets). */
export const ManagedPhase = 'http_request_firewall_managed';
/** The WAF custom rules phase (what firewall rules became on 2025-06-15). */
export const CustomPhase = 'http_request_firewall_custom';
/** The phases whose zone entry point zonewall's engine serves. */
export const ServedPhases = [CustomPhase, ManagedPhase, RatelimitPhase] as const;
export type ServedPhase = (typeof ServedPhases)[number];

/** Ruleset kinds of the real API; a zone entry point is `zone`. */
export const RulesetKinds = ['root', 'zone', 'managed', 'custom'] as const;
export type RulesetKind = (typeof RulesetKinds)[number];

/**
 * Route patterns (`:name` = one path segment, URL-encoded by clients). `entrypoint*` take the phase;
 * `ruleset*` and `rule*` take a ruleset id (an entry point's id works there too).
 */
export const RulesetRoutes = {
  rulesets: '/zones/:zone_id/rulesets',
  ruleset: '/zones/:zone_id/rulesets/:ruleset_id',
  rules: '/zones/:zone_id/rulesets/:ruleset_id/rules',
  rule: '/zones/:zone_id/rulesets/:ruleset_id/rules/:rule_id',
  rulesetVersions: '/zones/:zone_id/rulesets/:ruleset_id/versions',
  rulesetVersion: '/zones/:zone_id/rulesets/:ruleset_id/versions/:version',
  entrypoint: '/zones/:zone_id/rulesets/phases/:phase/entrypoint',
  entrypointVersions: '/zones/:zone_id/rulesets/phases/:phase/entrypoint/versions',
  entrypointVersion: '/zones/:zone_id/rulesets/phases/:phase/entrypoint/versions/:version',
} as const;

/**
 * Query parameters the Rulesets routes accept, besides `dry_run` (every write, `dry-run.ts`). Any
 * other one is refused with 10017 and nothing is saved. `waf_migration` (and `phase_two`, accepted and
 * ignored) are the WAF migration's parameters on a write of the managed entry point (seed 002); every
 * other Rulesets route takes none.
 */
export const RulesetQueryParameters = {
  managedEntrypointWrite: ['waf_migration', 'phase_two'],
  other: [],
} as const;

// ---------------------------------------------------------------------------------------------
// Rulesets and request bodies

/** Fields of a ruleset without its rules (list items, version lists). */
export interface RulesetSummary {
  id: string;
  name: string;
  /** `""` when unset. */
  description: string;
  kind: RulesetKind;
  phase: string;
  /** String in JSON; starts at "1". */
  version: string;
  last_updated: string;
  /** Seen on the managed entry point (`firewall_managed`). */
  source?: string;
}

/** A ruleset with its rules. */
export interface Ruleset<R = CustomRule | ManagedRule> extends RulesetSummary {
  rules: R[];
}

/** The custom phase's entry point. */
export type CustomEntrypoint = Ruleset<CustomRule> & { kind: 'zone'; phase: typeof CustomPhase };
/** The managed phase's entry point. */
export type ManagedEntrypoint = Ruleset<ManagedRule> & { kind: 'zone'; phase: typeof ManagedPhase };

type Distribute<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A rule in a request body: the server fields are optional. `id` matches an existing rule (kept
 * id); `ref` matches too and is checked unique; `version`/`last_updated` are accepted and ignored
 * (a GET body can be sent back).
 */
export type RuleBody<R extends RuleCommonFields> = Distribute<R, keyof RuleServerFields | 'enabled'> &
  Partial<RuleServerFields> & { enabled?: boolean };
export type CustomRuleBody = RuleBody<BlockRule> | RuleBody<PlainCustomRule> | RuleBody<SkipRule>;
export type ManagedRuleBody = RuleBody<ManagedRule>;

/**
 * Where a single-rule POST or PATCH puts the rule: exactly one key. `before`/`after` take a rule id
 * of the ruleset (`""` = first / last); `index` is 1-based, 1..count+1 on POST, 1..count on PATCH.
 */
export type RulePosition = { before: string } | { after: string } | { index: number };

/** `POST .../rulesets/{ruleset_id}/rules`: one rule, appended unless `position` says otherwise. */
export type AddRuleBody = CustomRuleBody & { position?: RulePosition };

/**
 * `PATCH .../rules/{rule_id}`: the complete new rule (fields left out are not kept) and/or a
 * `position`; a body with only `position` moves the rule without changing it (no version bump).
 */
export type PatchRuleBody = AddRuleBody | { position: RulePosition };

/**
 * `PUT .../phases/{phase}/entrypoint` and `PUT .../rulesets/{ruleset_id}`: the whole rule list
 * (rules left out are deleted). `name`, `kind` and `phase` are immutable: accepted only when equal
 * to the stored values (so a GET body can be sent back); an entry point created by the PUT is named
 * `default`.
 */
export interface PutRulesetBody<B = CustomRuleBody> {
  description?: string;
  rules: B[];
  name?: string;
  kind?: 'zone';
  phase?: string;
}

/** `POST /zones/{zone_id}/rulesets`: creates a phase entry point (`kind: zone`). */
export interface CreateRulesetBody<B = CustomRuleBody> {
  name: string;
  kind: 'zone';
  phase: ServedPhase;
  description?: string;
  rules?: B[];
}

/** Every answer that changes a ruleset returns the whole ruleset at its new version. */
export type RulesetResult = Ruleset;

// ---------------------------------------------------------------------------------------------
// Limits and error codes

/** Field limits (zonewall's where the real ones are unpublished; see the reference). */
export const RulesetFieldLimits = {
  /** The Rules language's API limit. */
  expression: 4096,
  name: 255,
  description: 500,
  ruleDescription: 500,
  /** Unpublished; long enough for manifest keys. */
  ref: 100,
  /** Custom block response body, bytes. */
  responseContent: 2048,
  /** Rules of the managed entry point. */
  managedRules: 1000,
} as const;

/** Custom rules per plan tier (entry point rules; reference §2.6). */
export const CustomRuleQuota = { free: 5, pro: 20, business: 100, enterprise: 1000 } as const;

/**
 * Error codes of the Rulesets API. 10003 and 20217 are the real service's (code and message);
 * the others are zonewall's, because the reference has none for those refusals. Field type errors
 * answer the engine's 10014, bad expressions 10015, unknown query parameters 10017.
 *
 * | code  | HTTP | condition |
 * |-------|------|-----------|
 * | 10003 | 404  | no entry point for the phase (also for a phase the engine does not serve) (real) |
 * | 20201 | 400  | unknown managed ruleset id |
 * | 20202 | 400  | unknown rule id or category of a managed ruleset |
 * | 20203 | 400  | an action that is not valid in the phase (or action_parameters of another action) |
 * | 20204 | 400  | something the zone's plan does not include (a ruleset, `log`, `matches`, a custom response, a plan-gated field) |
 * | 20205 | 400  | a rule `id` in a PUT that is not one of the ruleset's rules, or listed twice |
 * | 20206 | 404  | no ruleset with that id |
 * | 20207 | 404  | no such version |
 * | 20208 | 404  | no rule with that id in the ruleset (PATCH/DELETE of a rule) |
 * | 20209 | 400  | a bad `position` (several keys, a before/after id not in the ruleset, index out of range) |
 * | 20210 | 400  | more custom rules than the zone's plan allows |
 * | 20211 | 400  | `ref` used by two rules of the ruleset |
 * | 20212 | 400  | a change to an immutable field (`name`, `kind`, `phase`) |
 * | 20213 | 400  | a write to a phase the engine does not serve |
 * | 20217 | 400  | a second `kind: zone` ruleset for a phase (real; pointer `/kind`) |
 * | 20218 | 400  | DELETE of a ruleset's latest version (delete the ruleset instead) |
 * | 20014 | 400  | two `execute` rules of one managed ruleset in an entry point (the service's code and words, as users report them) |
 */
export const RulesetErrorCodes = {
  entrypointNotFound: { code: 10003, status: 404 },
  unknownRuleset: { code: 20201, status: 400 },
  unknownRule: { code: 20202, status: 400 },
  badAction: { code: 20203, status: 400 },
  notEntitled: { code: 20204, status: 400 },
  unknownEntrypointRule: { code: 20205, status: 400 },
  rulesetNotFound: { code: 20206, status: 404 },
  versionNotFound: { code: 20207, status: 404 },
  ruleNotFound: { code: 20208, status: 404 },
  badPosition: { code: 20209, status: 400 },
  ruleQuota: { code: 20210, status: 400 },
  duplicateRef: { code: 20211, status: 400 },
  immutableField: { code: 20212, status: 400 },
  phaseNotServed: { code: 20213, status: 400 },
  zoneRulesetExists: { code: 20217, status: 400 },
  latestVersion: { code: 20218, status: 400 },
  duplicateExecute: { code: 20014, status: 400 },
} as const;
export type RulesetErrorKind = keyof typeof RulesetErrorCodes;

/** The real messages, for clients that match on text as well as code. */
export const RulesetErrorMessages = {
  /** Followed by the phase and ` phase`: `could not find entrypoint ruleset in the <phase> phase`. */
  entrypointNotFound: 'could not find entrypoint ruleset in the',
  /** `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase <phase>`. */
  zoneRulesetExists: "'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase",
  /** Followed by `: ` and which rules (zonewall's words). */
  duplicateExecute: 'more than one rule is trying to execute the same managed ruleset',
} as const;
