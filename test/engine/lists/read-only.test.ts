/**
 * A plan reads lists through a read-only engine (no lock, nothing written): the lists and items an
 * apply wrote are there, and a state directory without any account object reads as no lists.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Engine } from '../../../src/engine/index.js';
import { DefaultAccountId } from './kit.js';

it('reads lists and items on a read-only engine, and no lists where none were written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zw-lists-ro-'));
  try {
    const writer = await Engine.open({ dir });
    await writer.createZone('example.com');
    await writer.close();
    const empty = await Engine.open({ dir, readOnly: true });
    expect((await empty.dispatch({ method: 'GET', path: `/accounts/${DefaultAccountId}/rules/lists` })).body.result).toEqual([]);
    await empty.close();
    // The reader created no account object (its lists read as none, in memory).
    expect(readdirSync(join(dir, 'accounts', 'objects'))).toEqual([]);
    const w = await Engine.open({ dir });
    const list = (await w.dispatch({ method: 'POST', path: `/accounts/${DefaultAccountId}/rules/lists`, body: { name: 'office', kind: 'ip' } })).body.result as { id: string };
    await w.dispatch({ method: 'POST', path: `/accounts/${DefaultAccountId}/rules/lists/${list.id}/items`, body: [{ ip: '192.0.2.1' }] });
    await w.close();
    const reader = await Engine.open({ dir, readOnly: true });
    const items = await reader.dispatch({ method: 'GET', path: `/accounts/${DefaultAccountId}/rules/lists/${list.id}/items` });
    expect((items.body.result as { ip: string }[]).map((i) => i.ip)).toEqual(['192.0.2.1']);
    await reader.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
