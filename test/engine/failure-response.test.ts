/**
 * `failureResponse`, the one answer of the engine's catch-alls (dispatcher, zone and account
 * objects, servers): a refusal keeps its own envelope and is not logged; anything else is logged
 * with what failed and answered as an internal error without its details.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/engine/api-errors.js';
import { accessFailureOf, errorResponse, failureResponse } from '../../src/engine/envelope.js';
import { StorageAccessError } from '../../src/storage/index.js';

describe('failureResponse', () => {
  it('answers a refusal with its own envelope and logs nothing', () => {
    const logged: string[] = [];
    const refusal = ApiError.of('invalidField', 'refused here');
    expect(failureResponse(refusal, 'POST /x', (m) => logged.push(m))).toEqual(errorResponse(refusal));
    expect(logged).toEqual([]);
  });

  it('logs any other error with what failed and answers an internal error without its details', () => {
    const logged: [string, unknown][] = [];
    const boom = new Error('boom: secret detail');
    const answer = failureResponse(boom, 'zones/:id/filters on zone z1', (m, e) => logged.push([m, e]));
    expect(logged).toEqual([['zones/:id/filters on zone z1 failed', boom]]);
    expect(answer.status).toBe(500);
    expect(answer.body.success).toBe(false);
    expect(answer.body.errors).toEqual([expect.objectContaining({ message: 'internal error: the request was not applied (details are in the server log)' })]);
    expect(JSON.stringify(answer.body)).not.toContain('secret detail');
  });

  it('answers a state-directory access error as an internal error that says so, carrying the error for its caller to log or throw', () => {
    const logged: unknown[] = [];
    const denied = new StorageAccessError({ path: '/s/zones/objects/a.sqlite', owner: 0, mode: 0o644, folder: false, uid: 1000, writes: true, root: '/s' });
    const answer = failureResponse(denied, 'POST /zones/z1/filters', (m, e) => logged.push([m, e]));
    // Not logged here with its stack: the HTTP server logs its message, Engine.dispatch throws it.
    expect(logged).toEqual([]);
    expect(answer.status).toBe(500);
    expect(answer.body.errors).toEqual([{ code: 10500, message: 'internal error: the request was not applied: the server cannot write a file of its state directory (the server log names it)' }]);
    expect(accessFailureOf(answer)).toBe(denied);
    expect(denied.message).toBe('cannot write the state directory /s: the file /s/zones/objects/a.sqlite (mode 0644, owner uid 0) is not writable by this user (uid 1000): run zonewall as its owner, or give the files to this user (chown -R 1000 /s)');
    expect(accessFailureOf(failureResponse(new Error('x'), 'GET /', () => undefined))).toBeUndefined();
  });
});
