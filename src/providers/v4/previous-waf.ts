/**
 * The previous WAF over the v4 API: packages, each package's groups and rules, and the URI
 * overrides (read concurrently, a page per 100 objects), one PATCH per package, group or rule, and
 * the DELETE of an override (the migration needs them gone).
 */
import { AuthErrorCodes } from '../../api/index.js';
import type { LivePreviousWaf, LiveWafGroup, LiveWafOverride, LiveWafPackage, LiveWafRule } from '../../plan/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { mapLimit } from './concurrency.js';
import { V4Limits, V4Paths } from './constants.js';
import { ServiceError } from './errors.js';

/**
 * The previous WAF: packages, then each package's groups and rules, and the URI overrides. Null
 * when the service refuses the packages list with a 4xx: the zone has migrated, or its plan has no
 * previous WAF (Pro and higher only), so there is nothing to manage.
 */
export async function readPreviousWaf(client: V4Client, zoneId: string): Promise<LivePreviousWaf | null> {
  let packages: LiveWafPackage[];
  try {
    packages = await client.listAll<LiveWafPackage>(V4Paths.wafPackages(zoneId), {}, undefined, AnswerShapes.wafPackage);
  } catch (err) {
    if (previousWafUnavailable(err)) return null;
    throw err;
  }
  const [perPackage, overrides] = await Promise.all([
    mapLimit(packages, V4Limits.readConcurrency, async (p) => {
      const [groups, rules] = await Promise.all([
        client.listAll<LiveWafGroup>(V4Paths.wafGroups(zoneId, p.id), {}, undefined, AnswerShapes.wafGroup),
        client.listAll<LiveWafRule>(V4Paths.wafRules(zoneId, p.id), {}, undefined, AnswerShapes.wafRule),
      ]);
      return { groups, rules };
    }),
    client.listAll<LiveWafOverride>(V4Paths.wafOverrides(zoneId), {}, undefined, AnswerShapes.wafOverride),
  ]);
  return {
    packages,
    groups: perPackage.flatMap((p) => p.groups),
    rules: perPackage.flatMap((p) => p.rules),
    overrides,
  };
}

/**
 * A 4xx refusal of the previous WAF's package list that means "no previous WAF here": the engine's
 * `V4Codes.previousWafRetired` / `previousWafUnavailable`, or any other service's 4xx that is not
 * about credentials (other services word it differently; the zone was already resolved, so a
 * refusal here is about the previous WAF, not about access to the zone).
 */
function previousWafUnavailable(err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  if (err.status < 400 || err.status >= 500 || err.status === 401 || err.status === 429) return false;
  // Auth refusals must surface: they mean the credential lacks a permission, not that the WAF is gone.
  return !AuthErrorCodes.some((code) => err.hasCode(code));
}

/** PATCH of a package's sensitivity and action mode. */
export async function patchWafPackage(client: V4Client, zoneId: string, packageId: string, body: { sensitivity?: string; action_mode?: string }): Promise<void> {
  await client.call('PATCH', V4Paths.wafPackage(zoneId, packageId), { body });
}

/** PATCH of a group's mode. */
export async function patchWafGroup(client: V4Client, zoneId: string, packageId: string, groupId: string, mode: 'on' | 'off'): Promise<void> {
  await client.call('PATCH', V4Paths.wafGroup(zoneId, packageId, groupId), { body: { mode } });
}

/** PATCH of a rule's mode. */
export async function patchWafRule(client: V4Client, zoneId: string, packageId: string, ruleId: string, mode: string): Promise<void> {
  await client.call('PATCH', V4Paths.wafRule(zoneId, packageId, ruleId), { body: { mode } });
}

/**
 * DELETE of a URI-based override. A 404 for an override the zone no longer has is the delete done: a
 * DELETE whose answer was lost is sent again, and meets the override it deleted gone.
 */
export async function deleteWafOverride(client: V4Client, zoneId: string, overrideId: string): Promise<void> {
  try {
    await client.call('DELETE', V4Paths.wafOverride(zoneId, overrideId));
  } catch (err) {
    if (!(err instanceof ServiceError && err.status === 404)) throw err;
    // Gone only if the zone's overrides say so; a failed read leaves the refusal as it was.
    const overrides = await client.listAll<LiveWafOverride>(V4Paths.wafOverrides(zoneId), {}, undefined, AnswerShapes.wafOverride).catch(() => undefined);
    if (overrides === undefined || overrides.some((o) => o.id === overrideId)) throw err;
  }
}
