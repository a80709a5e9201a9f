/**
 * Reads of the rate limiting kind over the v4 API: the `http_ratelimit` entry point (null when
 * the zone has none). Its writes are the phase-generic ones of `rules-phase.ts`.
 */
import { RatelimitPhase } from '../../api/index.js';
import type { LiveRateLimitEntrypoint } from '../../plan/index.js';
import type { V4Client } from './client.js';
import { readPhase } from './rules-phase.js';

/** The zone's `http_ratelimit` entry point, or null when it has none. */
export function readRateLimitEntrypoint(client: V4Client, zoneId: string): Promise<LiveRateLimitEntrypoint | null> {
  return readPhase<LiveRateLimitEntrypoint>(client, zoneId, RatelimitPhase);
}
