/**
 * `failureResponse`, the one answer of the engine's catch-alls (dispatcher, zone and account
 * objects, servers): a refusal keeps its own envelope and is not logged; anything else is logged
 * with what failed and answered as an internal error without its details.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/engine/api-errors.js';
import { errorResponse, failureResponse } from '../../src/engine/envelope.js';

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
});
