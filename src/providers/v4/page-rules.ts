/**
 * Page Rules over the v4 API: the zone's list (one unpaginated GET; a 404 means the service has no
 * Page Rules API for the zone), and one POST, PUT or DELETE per rule (the API has no batch form).
 */
import type { LivePageRule, PageRuleBody } from '../../plan/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { V4Paths } from './constants.js';
import { ServiceError } from './errors.js';

/** The zone's Page Rules (one unpaginated list), or undefined when the service has no such API (404). */
export async function readPageRules(client: V4Client, zoneId: string): Promise<LivePageRule[] | undefined> {
  try {
    // A null result is none; anything else not a list of Page Rules is refused (it read as none).
    const rules = await client.result<LivePageRule[] | null>('GET', V4Paths.pageRules(zoneId), { shape: ['?', AnswerShapes.pageRule] });
    return rules ?? [];
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return undefined;
    throw err;
  }
}

/** Creates a Page Rule. */
export function createPageRule(client: V4Client, zoneId: string, body: PageRuleBody): Promise<LivePageRule> {
  return client.result<LivePageRule>('POST', V4Paths.pageRules(zoneId), { body });
}

/** Replaces a Page Rule. */
export function updatePageRule(client: V4Client, zoneId: string, ruleId: string, body: PageRuleBody): Promise<LivePageRule> {
  return client.result<LivePageRule>('PUT', V4Paths.pageRule(zoneId, ruleId), { body });
}

/**
 * Deletes a Page Rule. A 404 for a Page Rule the zone no longer has is the delete done: a DELETE
 * whose answer was lost is sent again, and meets the rule it deleted gone.
 */
export async function deletePageRule(client: V4Client, zoneId: string, ruleId: string): Promise<void> {
  try {
    await client.call('DELETE', V4Paths.pageRule(zoneId, ruleId));
  } catch (err) {
    if (!(err instanceof ServiceError && err.status === 404)) throw err;
    // Gone only if the zone's Page Rules say so; a failed read leaves the refusal as it was.
    const rules = await readPageRules(client, zoneId).catch(() => undefined);
    if (rules === undefined || rules.some((r) => r.id === ruleId)) throw err;
  }
}
