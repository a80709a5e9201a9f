/**
 * A zone object's answer crossing to the Worker's front (workerd): list pages go as their JSON bytes,
 * the front reads the body from them only when asked, and `--strict` stripping never sends the
 * unstripped bytes.
 */
import { describe, expect, it } from 'vitest';
import { ok, pageWithBytes } from '../../src/engine/envelope.js';
import { withoutExtensions } from '../../src/engine/strict.js';
import { fromWire, toWire } from '../../src/engine/wire-answer.js';
import { FilterPaths } from '../../src/api/index.js';

const utf8 = new TextEncoder();
const rows = [{ id: 'a', expression: 'ip.src eq 192.0.2.1', paused: false, locked: false }, { id: 'b', expression: 'http.host eq "é"', paused: true, locked: true }];
const pageOf = () => pageWithBytes(rows.map((r) => Object.freeze({ ...r })), (r) => utf8.encode(JSON.stringify(r)), { page: 1, perPage: 25, offset: 0 }, rows.length);

describe('wire answers', () => {
  it('sends a list page as the bytes of its body, which read back as the body', () => {
    const answer = pageOf();
    const wire = toWire(answer);
    expect('json' in wire).toBe(true);
    const back = fromWire(structuredClone(wire));
    expect(new TextDecoder().decode(back.json)).toBe(JSON.stringify(answer.body));
    expect(back.status).toBe(200);
    expect(back.body).toEqual(answer.body);
  });

  it('sends any other answer as it is', () => {
    const answer = ok({ id: 'x' });
    expect(toWire(answer)).toBe(answer);
    expect(fromWire(answer)).toBe(answer);
  });

  it('strips extension fields from the body under --strict, and drops the unstripped bytes', () => {
    const back = fromWire(structuredClone(toWire(pageOf())));
    const strict = withoutExtensions(FilterPaths.collection, back);
    expect(strict.json).toBeUndefined();
    expect((strict.body.result as { locked?: boolean }[]).map((r) => r.locked)).toEqual([undefined, undefined]);
  });
});
