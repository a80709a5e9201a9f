/**
 * The credentials a connection passed are remembered for that connection (`CredentialStore`,
 * issue 17: a keep-alive client's token is not hashed at every request). What must hold: a request
 * is answered by its own headers only, whatever the connection sent before; a refused value is
 * never remembered; another store (another server) remembers nothing of this one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'undici';
import { CredentialStore } from '../../src/engine/server/auth.js';
import { ApiError } from '../../src/engine/api-errors.js';
import { EMAIL, KEY, TOKEN, startHarness, type Harness } from './helpers.js';

const SCOPED = 'token-for-zone-a-only-42';
const KEY_B = { email: 'b-owner@example.com', key: 'key-for-zone-b-0000' };

function refusal(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err.errors[0]!.code;
    throw err;
  }
  return undefined;
}

describe('CredentialStore, per connection', () => {
  const store = new CredentialStore([
    { type: 'token', token: TOKEN, zones: '*' },
    { type: 'token', token: SCOPED, zones: ['a.example'] },
    { type: 'key', email: KEY_B.email, key: KEY_B.key, zones: ['b.example'] },
  ]);

  it('answers each request by its own headers, whatever the connection sent before', () => {
    const connection = {};
    expect(store.authenticate({ authorization: `Bearer ${TOKEN}` }, connection)).toEqual({ zones: '*' });
    expect(store.authenticate({ authorization: `Bearer ${TOKEN}` }, connection)).toEqual({ zones: '*' });
    expect(store.authenticate({ authorization: `Bearer ${SCOPED}` }, connection)).toEqual({ zones: ['a.example'] });
    expect(store.authenticate({ 'x-auth-email': KEY_B.email, 'x-auth-key': KEY_B.key }, connection)).toEqual({ zones: ['b.example'] });
    expect(refusal(() => store.authenticate({ 'x-auth-email': KEY_B.email, 'x-auth-key': `${KEY_B.key}x` }, connection))).toBe(9103);
    expect(refusal(() => store.authenticate({}, connection))).toBe(9106);
    expect(store.authenticate({ authorization: `Bearer ${TOKEN}` }, connection)).toEqual({ zones: '*' });
  });

  it('never remembers a refused value, nor a prefix or extension of an accepted one', () => {
    const connection = {};
    expect(refusal(() => store.authenticate({ authorization: 'Bearer not-a-known-token' }, connection))).toBe(9109);
    expect(refusal(() => store.authenticate({ authorization: 'Bearer not-a-known-token' }, connection))).toBe(9109);
    expect(store.authenticate({ authorization: `Bearer ${TOKEN}` }, connection)).toEqual({ zones: '*' });
    expect(refusal(() => store.authenticate({ authorization: `Bearer ${TOKEN.slice(0, -1)}` }, connection))).toBe(9109);
    expect(refusal(() => store.authenticate({ authorization: `Bearer ${TOKEN}0` }, connection))).toBe(9109);
    expect(refusal(() => store.authenticate({ authorization: 'Bearer' }, connection))).toBe(6003);
  });

  it('a token wins over a key pair on a connection that sent the pair before, as without one', () => {
    const connection = {};
    expect(store.authenticate({ 'x-auth-email': KEY_B.email, 'x-auth-key': KEY_B.key }, connection)).toEqual({ zones: ['b.example'] });
    expect(store.authenticate({ authorization: `Bearer ${SCOPED}`, 'x-auth-email': KEY_B.email, 'x-auth-key': KEY_B.key }, connection)).toEqual({ zones: ['a.example'] });
  });

  it('another store remembers nothing of this one', () => {
    const connection = {};
    expect(store.authenticate({ authorization: `Bearer ${TOKEN}` }, connection)).toEqual({ zones: '*' });
    const other = new CredentialStore([{ type: 'token', token: SCOPED, zones: ['a.example'] }]);
    expect(refusal(() => other.authenticate({ authorization: `Bearer ${TOKEN}` }, connection))).toBe(9109);
  });
});

describe('serve: one keep-alive connection, several credentials', () => {
  let h: Harness;
  let client: Client;
  let a: string;
  let b: string;
  beforeAll(async () => {
    h = await startHarness({ credentials: [{ type: 'token', token: SCOPED, zones: ['a.example'] }, { type: 'key', ...KEY_B, zones: ['b.example'] }] });
    a = await h.zone('a.example');
    b = await h.zone('b.example');
    client = new Client(new URL(h.server.url).origin, { pipelining: 1 });
  });
  afterAll(async () => {
    await client.close();
    await h.cleanup();
  });

  async function status(path: string, headers: Record<string, string>): Promise<number> {
    const res = await client.request({ method: 'GET', path: `/client/v4${path}`, headers });
    await res.body.text();
    return res.statusCode;
  }

  it('answers every request by its own credentials', async () => {
    let connects = 0;
    client.on('connect', () => connects++);
    expect(await status(`/zones/${b}/filters`, { authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(await status(`/zones/${b}/filters`, { authorization: `Bearer ${SCOPED}` })).toBe(403);
    expect(await status(`/zones/${a}/filters`, { authorization: `Bearer ${SCOPED}` })).toBe(200);
    expect(await status(`/zones/${a}/filters`, { authorization: 'Bearer nope-nope-nope' })).toBe(403);
    expect(await status(`/zones/${a}/filters`, {})).toBe(401);
    expect(await status(`/zones/${b}/filters`, { 'x-auth-email': KEY_B.email, 'x-auth-key': KEY_B.key })).toBe(200);
    expect(await status(`/zones/${a}/filters`, { 'x-auth-email': KEY_B.email, 'x-auth-key': KEY_B.key })).toBe(403);
    expect(await status(`/zones/${a}/filters`, { 'x-auth-email': EMAIL, 'x-auth-key': KEY })).toBe(200);
    expect(await status(`/zones/${b}/filters`, { authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(connects).toBe(1); // all of them over one connection
  });
});
