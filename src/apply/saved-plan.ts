/**
 * Saved plans: `zonewall plan --out FILE` writes the plan document; `zonewall apply FILE` reads it
 * back here, checks it against `schemas/plan.schema.json` and its format version, and, once the
 * zone has been read again, refuses it when the zone's fingerprint changed since (a dashboard edit,
 * another apply): the saved changes are applied as they are, never re-diffed, so they must still
 * describe the zone.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv, ValidateFunction } from 'ajv/dist/2020.js';
import { ZonewallError } from '../errors.js';
import { duplicateKeyMessage, firstDuplicateKey, jsonErrorPlace } from '../json-text.js';
import { writeFileAtomic } from './write-file.js';
import { PlanFormatVersion, accountFingerprint, fingerprint, type ListsPlan, type LiveAccount, type LiveZone, type LiveZoneInfo, type Plan, type PlanJson } from '../plan/index.js';
import type { Provider } from '../providers/index.js';

/** The zone changed since the plan was saved. */
export class StalePlanError extends ZonewallError {
  constructor(message: string) {
    // The code is part of the one line the CLI prints, as the docs promise (issue 32).
    super('ERR_STALE_PLAN', `${message} (ERR_STALE_PLAN)`);
  }
}

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  if (validator === undefined) {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object;
    // Loaded on first use: `plan --out` writes saved plans without ajv, whose compiler is large to load.
    const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as { Ajv2020: typeof Ajv };
    validator = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  }
  return validator;
}

/** True when a parsed JSON value looks like a plan document (rather than a manifest). */
export function isPlanDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'zonewall.plan';
}

/** Reads `file` as a plan document, or returns undefined when it is not one (e.g. a YAML manifest). */
export function readSavedPlan(file: string): PlanJson | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // A truncated or hand-edited plan is still recognisable by its kind; without this it would be
    // read as a YAML manifest and answered with a screen of unrelated YAML syntax errors.
    if (/^\s*\{[\s\S]*"kind"\s*:\s*"zonewall\.plan"/.test(text)) {
      throw new ZonewallError('ERR_USAGE', `${file} is a zonewall plan but not valid JSON${jsonErrorPlace(text, err)}; it may be truncated: plan again with zonewall plan --out`);
    }
    return undefined;
  }
  if (!isPlanDocument(value)) return undefined;
  // `plan --out` writes each key once: a repeat (of which JSON keeps the last, silently) is an edit or damage.
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) throw new ZonewallError('ERR_USAGE', duplicateKeyMessage(file, text, duplicate, 'zonewall writes each key once, so the plan was edited or damaged: plan again with zonewall plan --out'));
  const doc = value as PlanJson;
  const reads = PlanFormatVersion.split('.')[0]!;
  const version: unknown = doc.format_version;
  if (version === undefined) throw new ZonewallError('ERR_USAGE', `${file} is a zonewall plan without its format_version (this zonewall reads format ${reads}.x): plan again with zonewall plan --out`);
  if (typeof version !== 'string') throw new ZonewallError('ERR_USAGE', `${file}: format_version must be a text such as "${PlanFormatVersion}", got ${JSON.stringify(version)}: plan again with zonewall plan --out`);
  if (version.split('.')[0] !== reads) {
    throw new ZonewallError('ERR_USAGE', `${file} is a plan of format ${String(doc.format_version)}; this zonewall reads format ${reads}.x: plan again with this version`);
  }
  const check = validate();
  if (!check(doc)) {
    const reasons = (check.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    throw new ZonewallError('ERR_USAGE', `${file} is not a valid zonewall plan (${reasons}); plan again with zonewall plan --out`);
  }
  return doc;
}

/**
 * Writes a plan document (no credentials ever go into it), atomically: a temp file renamed over
 * `file`, so a failed or interrupted write never leaves half a plan (or clobbers an older one).
 */
export function writeSavedPlan(file: string, doc: PlanJson): void {
  writeFileAtomic(file, `${JSON.stringify(doc, null, 2)}\n`, `the plan to ${file}`);
}

/**
 * The saved plan's zone on `provider`: by id; on the embedded engine by name, so that a plan saved
 * for a zone the engine did not have yet finds it missing again (it reads as new, with the plan's
 * id, and apply's first write creates it, on the WAF generation the plan recorded for it: the one
 * its manifest means). A zone of that name made since has another id, which `assertFresh` refuses.
 */
export async function savedPlanZone(provider: Provider, plan: Pick<Plan, 'zone'>): Promise<LiveZoneInfo> {
  if (provider.kind !== 'engine') return (await provider.resolveZone(plan.zone.id)).zone;
  const waf = plan.zone.waf;
  return (await provider.resolveZone(plan.zone.name, { create: { plan: plan.zone.plan ?? 'enterprise', id: plan.zone.id, ...(waf !== undefined ? { waf } : {}) } })).zone;
}

/**
 * Refuses (`ERR_USAGE`) to apply a saved plan through another provider than the one it was made
 * against: a zone the plan creates would be created there (a zone it changes is refused anyway, as
 * stale). A plan of an older zonewall does not record its target and is not checked.
 */
export function assertPlannedHere(doc: Pick<PlanJson, 'provider'>, provider: Pick<Provider, 'kind' | 'target'>): void {
  const made = doc.provider;
  if (made?.target === undefined || (made.kind === provider.kind && made.target === provider.target)) return;
  const place = (kind: 'engine' | 'http', target: string) => `${kind === 'engine' ? 'the embedded engine at' : 'the v4 API at'} ${target}`;
  const flag = made.kind === 'engine' ? `--state-dir ${made.target}` : `--remote ${made.target}`;
  throw new ZonewallError('ERR_USAGE', `the saved plan was made against ${place(made.kind, made.target)}, not ${place(provider.kind, provider.target)}: apply it where it was made (${flag}), or plan again against this one`);
}

/** Throws `StalePlanError` unless the zone is still in the state the plan was computed on. */
export function assertFresh(plan: Pick<Plan, 'zone' | 'fingerprint'>, live: LiveZone): void {
  if (live.zone.id !== plan.zone.id) {
    throw new StalePlanError(`the saved plan is for zone ${plan.zone.name} (${plan.zone.id}) but the provider has ${live.zone.name} as ${live.zone.id}: plan again against this provider`);
  }
  const now = fingerprint(live);
  if (now !== plan.fingerprint) {
    throw new StalePlanError(`zone ${plan.zone.name} changed since the plan was saved (fingerprint ${plan.fingerprint.slice(0, 19)}…, now ${now.slice(0, 19)}…); nothing was applied: run zonewall plan again`);
  }
}

/**
 * Throws `StalePlanError` unless the account's lists are still those the saved lists plan was
 * computed on (its item writes name item ids). A lists plan saved without a fingerprint (an older
 * zonewall) is not checked.
 */
export function assertListsFresh(plan: Pick<ListsPlan, 'account' | 'fingerprint'>, live: LiveAccount): void {
  if (plan.fingerprint === undefined) return;
  const now = accountFingerprint(live);
  if (now !== plan.fingerprint) {
    throw new StalePlanError(`the lists of account ${plan.account.name} changed since the plan was saved (fingerprint ${plan.fingerprint.slice(0, 19)}…, now ${now.slice(0, 19)}…); nothing was applied: run zonewall plan again`);
  }
}
