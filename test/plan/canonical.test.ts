/**
 * The planner's canonicalizer: texts known canonical (the desired side's, or set texts whose key the
 * manifest check computed) are taken as they are, others parsed; the desired texts are read only
 * when a text without a set literal needs them.
 */
import { describe, expect, it } from 'vitest';
import { canonicalForms } from '../../src/expr/index.js';
import { createCanonicalizer } from '../../src/plan/canonical.js';

describe('createCanonicalizer', () => {
  it('takes a set text the key lookup knows as canonical, without reading the desired texts', () => {
    let read = 0;
    function* desired(): Generator<string> {
      read++;
      yield 'ip.src eq 192.0.2.1';
    }
    const text = 'ip.src in {192.0.2.1 192.0.2.2}';
    const c = createCanonicalizer(desired(), (t) => (t === text ? 'the checked key' : undefined));
    expect(c(text)).toEqual({ ok: true, canonical: text, key: 'the checked key' });
    expect(read).toBe(0);
    // A set text the lookup does not know is parsed: its key is the parser's.
    expect(c('ip.src in {192.0.2.2 192.0.2.1}')).toEqual({ ok: true, ...canonicalForms('ip.src in {192.0.2.2 192.0.2.1}') });
    expect(read).toBe(0);
  });

  it('takes a desired text without a set as canonical, and parses any other text', () => {
    // The desired texts are trusted as canonical: a text written otherwise would show it.
    const c = createCanonicalizer(['ip.src   eq 192.0.2.1'], () => undefined);
    expect(c('ip.src   eq 192.0.2.1')).toEqual({ ok: true, canonical: 'ip.src   eq 192.0.2.1', key: 'ip.src   eq 192.0.2.1' });
    expect(c('ip.src == 192.0.2.1')).toEqual({ ok: true, canonical: 'ip.src eq 192.0.2.1', key: 'ip.src eq 192.0.2.1' });
    const bad = c('ip.src eq');
    expect(bad.ok).toBe(false);
    expect(c('ip.src eq')).toBe(bad);
  });
});
