/**
 * Filters and firewall rules over the v4 API: batched writes, POST and PUT arrays and bulk `DELETE ?id=..`, at
 * most `V4Limits.batchSize` objects per call, so N objects cost ceil(N / 100) requests.
 *
 * Creates are idempotent across lost answers: when a POST times out, its connection drops after
 * sending, or it answers 5xx, the batch may or may not exist on the service. It is never resent
 * blindly: the resource is listed again, the bodies are matched by `ref` (a filter without a ref by
 * its expression, which the service keeps unique), and only the missing ones are sent again.
 */
import type { FilterBody, FirewallRuleBody, LiveFilter, LiveFirewallRule } from '../../plan/index.js';
import { DeleteFilterIfUnused, type RuleDeleteBody } from '../../api/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { V4Limits, V4Paths } from './constants.js';
import { chunk } from './concurrency.js';
import { ProviderError, isUnknownOutcome } from './errors.js';

/** How a body and a live object are recognised as the same object after a lost answer. */
type Identity<T> = (item: T) => string | undefined;

const filterIdentity: Identity<FilterBody | LiveFilter> = (f) => (f.ref ? `ref:${f.ref}` : `expression:${f.expression}`);
const ruleIdentity: Identity<FirewallRuleBody | LiveFirewallRule> = (r) => (r.ref ? `ref:${r.ref}` : undefined);

/** Creates filters (POST arrays), in input order. */
export function createFilters(client: V4Client, zoneId: string, filters: FilterBody[]): Promise<LiveFilter[]> {
  return createIdempotent<FilterBody, LiveFilter>(client, V4Paths.filters(zoneId), filters, filterIdentity);
}

/** Creates firewall rules whose filters exist (POST arrays), in input order. */
export function createFirewallRules(client: V4Client, zoneId: string, rules: FirewallRuleBody[]): Promise<LiveFirewallRule[]> {
  return createIdempotent<FirewallRuleBody, LiveFirewallRule>(client, V4Paths.firewallRules(zoneId), rules, ruleIdentity);
}

/** Replaces filters by id (bulk PUT). */
export function updateFilters(client: V4Client, zoneId: string, filters: (FilterBody & { id: string })[]): Promise<LiveFilter[]> {
  return putBatches<LiveFilter>(client, V4Paths.filters(zoneId), filters);
}

/** Replaces firewall rules by id (bulk PUT). */
export function updateFirewallRules(client: V4Client, zoneId: string, rules: (FirewallRuleBody & { id: string })[]): Promise<LiveFirewallRule[]> {
  return putBatches<LiveFirewallRule>(client, V4Paths.firewallRules(zoneId), rules);
}

/** Deletes filters by id (bulk DELETE; unknown ids are not an error). */
export function deleteFilters(client: V4Client, zoneId: string, ids: string[]): Promise<void> {
  return deleteBatches(client, V4Paths.filters(zoneId), ids);
}

/**
 * Deletes firewall rules by id (bulk DELETE). Their filters are kept unless `deleteFilterIfUnused`,
 * sent as the JSON body `{"delete_filter_if_unused": true}` as the single-rule delete takes it.
 */
export function deleteFirewallRules(client: V4Client, zoneId: string, ids: string[], deleteFilterIfUnused = false): Promise<void> {
  return deleteBatches(client, V4Paths.firewallRules(zoneId), ids, deleteFilterIfUnused ? ({ [DeleteFilterIfUnused]: true } satisfies RuleDeleteBody) : undefined);
}

async function putBatches<L>(client: V4Client, path: string, bodies: unknown[]): Promise<L[]> {
  const out: L[] = [];
  // Batches run one after another: each is atomic on the service, and order keeps failures legible.
  for (const batch of chunk(bodies, V4Limits.batchSize)) out.push(...(await client.result<L[]>('PUT', path, { body: batch, shape: [AnswerShapes.listItem] })));
  return out;
}

async function deleteBatches(client: V4Client, path: string, ids: string[], body?: unknown): Promise<void> {
  for (const batch of chunk([...new Set(ids)], V4Limits.batchSize)) await client.call('DELETE', path, { query: { id: batch }, ...(body !== undefined ? { body } : {}) });
}

async function createIdempotent<B, L extends { id: string }>(
  client: V4Client,
  path: string,
  bodies: B[],
  identity: Identity<B | L>,
): Promise<L[]> {
  const out: L[] = [];
  for (const batch of chunk(bodies, V4Limits.batchSize)) out.push(...(await createBatch<B, L>(client, path, batch, identity)));
  return out;
}

/** One batch: POST; after a lost answer, re-list, keep what exists, POST only the rest. */
async function createBatch<B, L extends { id: string }>(client: V4Client, path: string, batch: B[], identity: Identity<B | L>): Promise<L[]> {
  const created = new Array<L | undefined>(batch.length);
  let pending = batch.map((body, index) => ({ body, index }));
  for (let attempt = 1; pending.length > 0; attempt++) {
    try {
      const result = await client.result<L[]>('POST', path, { body: pending.map((p) => p.body), shape: [AnswerShapes.listItem] });
      pending.forEach((p, i) => (created[p.index] = result[i]));
      pending = [];
    } catch (err) {
      if (!isUnknownOutcome(err)) throw err;
      const anonymous = pending.filter((p) => identity(p.body) === undefined).length;
      if (anonymous > 0) {
        throw new ProviderError(`${err.message}; ${anonymous} object(s) have no ref to re-read them by, so they are not sent again: read the zone before retrying`, { cause: err, outcome: 'unknown' });
      }
      if (attempt >= V4Limits.createAttempts) {
        throw new ProviderError(`POST ${path}: gave up after ${attempt} attempts whose answers were lost; the last: ${err.message}`, { cause: err, outcome: 'unknown' });
      }
      await client.transport.backoff(attempt, { method: 'POST', path });
      pending = await settleFromLive(client, path, pending, created, identity);
    }
  }
  return created as L[];
}

/** Marks pending bodies that the service has after all; returns the ones still missing. */
async function settleFromLive<B, L extends { id: string }>(
  client: V4Client,
  path: string,
  pending: { body: B; index: number }[],
  created: (L | undefined)[],
  identity: Identity<B | L>,
): Promise<{ body: B; index: number }[]> {
  const live = new Map<string, L>();
  for (const item of await client.listAll<L>(path)) {
    const key = identity(item);
    if (key !== undefined && !live.has(key)) live.set(key, item);
  }
  return pending.filter((p) => {
    const found = live.get(identity(p.body)!);
    if (found !== undefined) created[p.index] = found;
    return found === undefined;
  });
}
