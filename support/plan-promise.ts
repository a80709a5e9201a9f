/**
 * The property of issue 31, shared by its test (`test/apply/plan-promise.property.test.ts`, bounded)
 * and its benchmark (`bench/plan-promise.ts`, more cases): over generated manifests and zone states
 * (filters, firewall rules, custom rules, Page Rules, managed rules, tiers, quotas near their
 * limits, previous or new WAF), whenever `plan` (with its pre-flight) reports no error finding,
 * `apply` succeeds on the embedded engine and the next plan is empty. In-process library calls only.
 */
import fc from 'fast-check';
import { applyZone, preflightFindings } from '../src/apply/index.js';
import { validateManifestText } from '../src/manifest/index.js';
import { diffZone, hasChanges, hasErrors, locateObject, readsFor } from '../src/plan/index.js';
import type { EngineProvider } from '../src/providers/engine/index.js';

/** One generated case: a zone state and a manifest for it. */
export interface PromiseCase {
  tier: 'free' | 'pro' | 'business' | 'enterprise';
  waf: 'previous' | 'new';
  /** Active firewall rules already in the zone, outside the manifest (quotas near their limits). */
  unmanaged: number;
  rules: { action: string; paused: boolean }[];
  custom: string[];
  pages: string[];
  managed: 'none' | 'enabled' | 'disabled' | 'free';
  migration: 'absent' | 'none' | 'pending';
}

/** One of `common`, or now and then one of `rare` (values a manifest check refuses, or a tier forbids). */
function rare(common: string[], seldom: string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...common) }, { weight: 1, arbitrary: fc.constantFrom(...seldom) });
}

/** The fast-check generator of cases. */
export const promiseCase: fc.Arbitrary<PromiseCase> = fc.record({
  tier: fc.constantFrom('free', 'pro', 'business', 'enterprise'),
  waf: fc.constantFrom('previous', 'new'),
  unmanaged: fc.integer({ min: 0, max: 6 }),
  rules: fc.array(fc.record({ action: rare(['block', 'challenge', 'managed_challenge', 'allow', 'bypass'], ['log']), paused: fc.boolean() }), { maxLength: 6 }),
  custom: fc.array(rare(['block', 'managed_challenge', 'js_challenge'], ['log']), { maxLength: 3 }),
  // Mostly patterns the service takes; now and then one it refuses (1004).
  pages: fc.array(rare(['{z}/a/*', 'www.{z}/b/*', '*{z}/c/*', 'https://{z}/f'], ['other.example/d/*', '{z}:8080/e/*', '{z}/*/*/*/*/*']), { maxLength: 4 }),
  managed: fc.constantFrom('none', 'enabled', 'disabled', 'free'),
  migration: fc.constantFrom('absent', 'none', 'pending'),
});

/** The manifest of a case for zone `zone`. */
export function manifestOf(c: PromiseCase, zone: string): string {
  const out = [`zone: ${zone}`, `plan: ${c.tier}`];
  if (c.rules.length > 0) {
    out.push('firewall_rules:');
    c.rules.forEach((r, i) => out.push(`  r${i}:`, `    action: ${r.action}`, ...(r.action === 'bypass' ? ['    products: [waf]'] : []), `    paused: ${r.paused}`, '    filter:', `      expression: ip.src eq 192.0.2.${i + 1}`));
  }
  if (c.custom.length > 0) {
    out.push('custom_rules:');
    c.custom.forEach((a, i) => out.push(`  c${i}:`, `    action: ${a}`, `    expression: http.request.uri.path eq "/c${i}"`));
  }
  const urls = [...new Set(c.pages.map((p) => p.replaceAll('{z}', zone)))];
  if (urls.length > 0) {
    out.push('page_rules:');
    urls.forEach((u, i) => out.push(`  p${i}:`, `    url: "${u}"`, '    disable_security: true'));
  }
  if (c.managed !== 'none') out.push('managed_rules:', `  - ruleset: ${c.managed === 'free' ? 'free' : 'managed'}`, ...(c.managed === 'disabled' ? ['    enabled: false'] : []));
  if (c.migration !== 'absent') out.push(`waf_migration: ${c.migration}`);
  return `${out.join('\n')}\n`;
}

/** What became of a case. */
export type CaseOutcome = 'invalid-manifest' | 'plan-error' | 'applied';

let zones = 0;

/**
 * Runs one case on `provider` (a writable embedded engine): the zone is made with its state, the
 * manifest planned with pre-flight, and when the plan has no error it is applied and planned again.
 * Throws (naming the case) when the promise is broken.
 */
export async function checkCase(provider: EngineProvider, c: PromiseCase): Promise<CaseOutcome> {
  const zone = `promise${++zones}-${process.pid}.example`;
  const text = manifestOf(c, zone);
  const loaded = validateManifestText(text, 'zone.yaml');
  if (loaded.zone === undefined) return 'invalid-manifest';
  const desired = loaded.zone;
  const made = await provider.engine.createZone(zone, { plan: c.tier, waf: c.waf });
  for (let i = 0; i < c.unmanaged; i++) {
    const [f] = (await provider.engine.dispatch({ method: 'POST', path: `/zones/${made.id}/filters`, body: [{ expression: `ip.src eq 198.51.100.${i + 1}` }] })).body.result as { id: string }[];
    if (f !== undefined) await provider.engine.dispatch({ method: 'POST', path: `/zones/${made.id}/firewall/rules`, body: [{ action: 'block', filter: { id: f.id } }] });
  }
  const plan = diffZone(desired, await provider.readZone(made.id, readsFor(desired)), {});
  plan.findings.push(...(await preflightFindings(plan, provider, (kind, ref) => locateObject(desired, ref, kind))));
  if (hasErrors(plan)) return 'plan-error';
  const result = await applyZone(plan, provider, { force: true });
  if (!result.ok) throw new Error(`plan had no error, apply failed (${result.error?.message}) for:\n${text}`);
  const again = diffZone(desired, await provider.readZone(made.id, readsFor(desired)), {});
  if (hasChanges(again)) throw new Error(`apply succeeded but the next plan is not empty for:\n${text}`);
  return 'applied';
}
