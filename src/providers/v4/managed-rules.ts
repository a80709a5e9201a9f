/**
 * The managed rules' entry point over the v4 API: its read (writes go through the phase-generic
 * `rules-phase.ts`).
 */
import type { LiveEntrypoint } from '../../plan/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { V4Paths } from './constants.js';
import { ServiceError } from './errors.js';

/**
 * The `http_request_firewall_managed` entry point, or null when the zone has none yet (404
 * 10003), or when the service has no rulesets API for it at all (404 with another code).
 */
export async function readEntrypoint(client: V4Client, zoneId: string): Promise<LiveEntrypoint | null> {
  try {
    return await client.result<LiveEntrypoint>('GET', V4Paths.entrypoint(zoneId), { shape: AnswerShapes.ruleset });
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}
