/**
 * The differential suite: every case of `cases.ts` runs in a workerd SQLite-backed Durable Object
 * (Miniflare 3) and in a zonewall object, and their observations must be equal, or, where the case
 * records a deliberate difference, each side must observe exactly what the case says it does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cases } from './cases.js';
import { observe, startWorkerd, startZonewall, type Runtime } from './runtimes.js';

let workerd: Runtime;
let zonewall: Runtime;

beforeAll(async () => {
  workerd = await startWorkerd();
  zonewall = startZonewall();
});

afterAll(async () => {
  await workerd?.dispose();
  await zonewall?.dispose();
});

describe('zonewall storage against workerd', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const [onWorkerd, onZonewall] = await Promise.all([observe(workerd, c), observe(zonewall, c)]);
    if (c.differs) {
      expect({ workerd: onWorkerd, zonewall: onZonewall }).toEqual({ workerd: c.differs.workerd, zonewall: c.differs.zonewall });
    } else {
      expect(onZonewall).toEqual(onWorkerd);
    }
  });
});
