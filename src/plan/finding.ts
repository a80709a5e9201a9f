/**
 * Findings: what a reviewer must know about a plan besides its changes. `error` findings make the
 * plan impossible to apply (the service would refuse it, or it contradicts the zone); `danger`
 * findings make apply refuse without `--force` (octoDNS's `UnsafePlan`); `warning` findings are
 * shown and change nothing.
 */
import type { ResourceKind } from './change.js';
import type { SourceLocation } from '../manifest/index.js';

/** How serious a finding is. */
export type FindingLevel = 'error' | 'danger' | 'warning';

/**
 * The finding codes every kind may use. Each kind adds its own (`<kind>/findings.ts`, by `declare
 * module` on `FindingCodeRegistry`), so this file names none of them:
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `tier` | error | the zone's plan tier does not allow what the manifest asks for |
 * | `deletes-too-many` | danger | more than the threshold of managed objects would be deleted |
 * | `unparsable-live-expression` | warning | a live expression does not parse: it is treated as different |
 * | `duplicate-ref` | warning | two live objects carry the same ref: the extra one is deleted |
 * | `weakens-action` | danger | a rule stops blocking (block or a challenge -> an action that lets traffic through) |
 * | `pauses-blocking-rule` | danger | a blocking firewall rule, or a filter an active blocking rule uses, is paused |
 * | `widens-exception` | danger | an exception lets more through: an allow, bypass or skip rule enabled, widened or skipping more, or a setting that switches security or the WAF off for more traffic |
 * | `preflight-refused` | error | the service refused one of the plan's writes at pre-flight (`apply/preflight.ts`): apply would stop there |
 */
export const FindingCodes = {
  tier: 'error',
  'deletes-too-many': 'danger',
  'unparsable-live-expression': 'warning',
  'duplicate-ref': 'warning',
  'weakens-action': 'danger',
  'pauses-blocking-rule': 'danger',
  'widens-exception': 'danger',
  'preflight-refused': 'error',
} as const satisfies Record<string, FindingLevel>;

type CoreCodes = typeof FindingCodes;

/** Every finding code and its level; kinds add theirs. */
export interface FindingCodeRegistry extends CoreCodes {}

/** One finding code. */
export type FindingCode = keyof FindingCodeRegistry & string;

/** One finding. */
export interface Finding {
  level: FindingLevel;
  code: FindingCode;
  message: string;
  /** The object it is about, when there is one. */
  kind?: ResourceKind;
  ref?: string;
  /** Where the manifest says it, when known. */
  location?: SourceLocation;
}

/** What a finding is about: the object and the manifest position, when known. */
export type FindingAbout = Omit<Finding, 'level' | 'code' | 'message'>;

/**
 * Builds a finding of a code every kind may use; the level comes from the code. A kind builds these
 * with its own builder (`<kind>/findings.ts`'s `finding`, which also builds the shared codes).
 */
export const sharedFinding = findingsOf({});

/**
 * The finding builder of a kind: its own codes (`codes`, with their levels) and the shared ones.
 * @example const finding = findingsOf({ 'rulesets-unavailable': 'error' }); finding('rulesets-unavailable', '…')
 */
export function findingsOf<T extends Record<string, FindingLevel>>(codes: T): (code: (keyof T & FindingCode) | keyof CoreCodes, message: string, about?: FindingAbout) => Finding {
  const levels: Record<string, FindingLevel> = { ...FindingCodes, ...codes };
  return (code, message, about = {}) => ({ level: levels[code]!, code, message, ...about });
}
