/**
 * The CLI's one error boundary: every failure ends as one line and an exit code; a stack trace
 * only for a bug, and only with --debug or ZONEWALL_DEBUG=1.
 */
import { describe, expect, it } from 'vitest';
import { debugWanted, InterruptedError, reportError } from '../../src/cli/error-boundary.js';
import { ZonewallError } from '../../src/errors.js';

const report = (err: unknown, debug = false): [number, string] => {
  let out = '';
  const code = reportError(err, (s) => { out += s; }, debug);
  return [code, out];
};

const errno = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`${code} something`), { code, ...extra });

describe('reportError', () => {
  it.each([
    ['a zonewall error', new ZonewallError('ERR_USAGE', 'bad option'), 1, 'error: bad option\n'],
    ['Ctrl-C', new InterruptedError('SIGINT', 'Apply cancelled at the prompt: nothing was applied.'), 130, 'Apply cancelled at the prompt: nothing was applied.\n'],
    ['SIGTERM', new InterruptedError('SIGTERM', 'stopped'), 143, 'stopped\n'],
    ['a closed pipe', errno('EPIPE'), 0, ''],
    ['a busy port', errno('EADDRINUSE', { port: 8484, address: '127.0.0.1' }), 1,
      'error: port 8484 on 127.0.0.1 is already in use (another zonewall serve?): stop it, or pass --port with another port (0 picks a free one)\n'],
    ['a missing file', errno('ENOENT', { path: 'x.yaml' }), 1, 'error: no such file or directory: x.yaml\n'],
  ])('%s: one line, exit %i', (_name, err, code, text) => {
    expect(report(err)).toEqual([code, text]);
  });

  it('a bug: one line saying so, the stack only with --debug', () => {
    const bug = new TypeError('x is undefined');
    const [code, text] = report(bug);
    expect(code).toBe(1);
    expect(text).toBe('internal error: TypeError: x is undefined (this is a bug in zonewall; run again with --debug or ZONEWALL_DEBUG=1 for the stack trace, and report it)\n');
    const [, debugText] = report(bug, true);
    expect(debugText).toContain(bug.stack!);
  });

  it('--debug or ZONEWALL_DEBUG=1 ask for stack traces', () => {
    expect(debugWanted(['node', 'zonewall', 'plan', '--debug'], {})).toBe(true);
    expect(debugWanted(['node', 'zonewall', 'plan'], { ZONEWALL_DEBUG: '1' })).toBe(true);
    expect(debugWanted(['node', 'zonewall', 'plan'], { ZONEWALL_DEBUG: '0' })).toBe(false);
  });
});
