/**
 * A client that goes away in the middle of its upload (a killed CLI, a dropped connection) is not a
 * failure of `serve`: one notice line saying the client went away, no stack trace, nothing logged as
 * an internal error, and the server keeps answering. Driven with a raw socket against the real server.
 */
import { connect } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine, startServer } from '../../src/engine/index.js';
import type { RunningServer } from '../../src/engine/index.js';

const Token = 'zw-dropped-upload-token-0123456789abcdef';
let dir: string;
let engine: Engine;
let server: RunningServer;
let errors: string[];
let notices: string[];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-dropped-'));
  engine = await Engine.open({ dir });
  errors = [];
  notices = [];
  server = await startServer(engine, {
    port: 0,
    credentials: [{ type: 'token', token: Token, zones: '*' }],
    logError: (message, err) => errors.push(`${message}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`),
    logNotice: (message) => notices.push(message),
  });
});

afterEach(async () => {
  await server.close();
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends the headers of a POST announcing 10,000 bytes, 20 of them, then resets the connection. */
function dropUpload(url: string, target: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST ${target} HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${Token}\r\ncontent-type: application/json\r\ncontent-length: 10000\r\n\r\n[{"expression":"ip.s`);
      setTimeout(() => socket.resetAndDestroy(), 50);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}

describe('serve: a client that drops its upload', () => {
  it('logs one line saying the client went away, no stack, not as an internal error', async () => {
    const zone = await engine.createZone('dropped.example', { plan: 'enterprise' });
    await dropUpload(server.url, `/client/v4/zones/${zone.id}/filters?x=secret`);
    // The notice is written when the server sees the reset; wait for it (bounded).
    for (let i = 0; i < 100 && notices.length === 0 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(errors).toEqual([]);
    expect(notices).toEqual([`POST /client/v4/zones/${zone.id}/filters: the client closed the connection before its request body arrived; nothing was applied`]);
    // Nothing half-applied, and the server still answers.
    const res = await fetch(`${server.url}/zones/${zone.id}/filters`, { headers: { authorization: `Bearer ${Token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: unknown[] }).result).toEqual([]);
  });
});
