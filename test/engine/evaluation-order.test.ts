/**
 * The order in which a zone's firewall rules are evaluated (what the trace and the migration
 * read): priority ascending, rules without priority last, then the action precedence (log,
 * bypass, allow, challenge, managed_challenge, js_challenge, block), then ref (none first), then id
 * (issue 32: a stable key, not creation order).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/index.js';
import { ok } from '../../src/engine/envelope.js';
import { rulesInEvaluationOrder } from '../../src/engine/firewall-rules/store.js';
import { resourcesWithZoneRoute } from './helpers.js';

const probe = resourcesWithZoneRoute('order', 'GET', (ctx) => ok(rulesInEvaluationOrder(ctx.sql).map((r) => r.rule.description)));

let dir: string;
let engine: Engine;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-engine-order-'));
  engine = await Engine.open({ dir, resources: probe });
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('evaluation order', () => {
  it('sorts by priority (null last), then action precedence, then ref', async () => {
    const zone = await engine.createZone('order.example');
    const post = (rules: unknown[]) => engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/firewall/rules`, body: rules });
    const f = (expression: string) => ({ expression });
    const created = await post([
      { description: 'block-null', action: 'block', ref: 'b', filter: f('ip.src eq 192.0.2.1') },
      { description: 'allow-null', action: 'allow', filter: f('ip.src eq 192.0.2.2') },
      { description: 'block-5', action: 'block', priority: 5, filter: f('ip.src eq 192.0.2.3') },
      { description: 'log-5', action: 'log', priority: 5, filter: f('ip.src eq 192.0.2.4') },
      { description: 'challenge-1', action: 'challenge', priority: 1, filter: f('ip.src eq 192.0.2.5') },
      { description: 'bypass-5', action: 'bypass', products: ['waf'], priority: 5, filter: f('ip.src eq 192.0.2.6') },
      { description: 'block-null-2', action: 'block', ref: 'a', filter: f('ip.src eq 192.0.2.7') },
    ]);
    expect(created.body.success).toBe(true);
    const order = await engine.dispatch({ method: 'GET', path: `/zones/${zone.id}/order` });
    expect(order.body.result).toEqual(['challenge-1', 'log-5', 'bypass-5', 'block-5', 'allow-null', 'block-null-2', 'block-null']);
  });
});
