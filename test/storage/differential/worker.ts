/**
 * The workerd side: a SQLite-backed Durable Object class whose fetch handler runs the case named
 * in the `case` query parameter and answers its observations as JSON. esbuild bundles this file
 * with the cases into one module script (workerd forbids eval, so cases cannot be sent as code).
 * The default export routes each case to the object named after it, so every case starts empty.
 */
import type { ObjectState, ObjectStorage } from '../../../src/storage/index.js';
import { onAlarm, runCase } from './cases.js';

interface DurableObjectState {
  storage: unknown;
}
interface Env {
  OBJ: { idFromName(name: string): unknown; get(id: unknown): { fetch(request: Request): Promise<Response> } };
}

/** The case object. */
export class Obj {
  readonly #ctx: DurableObjectState;

  constructor(ctx: DurableObjectState) {
    this.#ctx = ctx;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const name = url.searchParams.get('case') ?? '';
    const phase = url.searchParams.get('phase') ?? 'first';
    const observed = await runCase(name, this.#ctx.storage as ObjectStorage, this.#ctx as unknown as ObjectState, phase);
    return new Response(JSON.stringify(observed), { headers: { 'content-type': 'application/json' } });
  }

  async alarm(info: { retryCount: number; isRetry: boolean }): Promise<void> {
    await onAlarm(this.#ctx.storage as ObjectStorage, info);
  }
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    const name = new URL(request.url).searchParams.get('case') ?? '';
    return env.OBJ.get(env.OBJ.idFromName(name)).fetch(request);
  },
};
