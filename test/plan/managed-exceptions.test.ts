/**
 * Managed-rules exceptions in the planner (issue 28): matched by ref (ids kept), a migrated skip
 * rule adopted by the manifest's exception, the PUT in manifest order, and the guard: a new or
 * enabled exception is `skips-managed-rules`, one that skips more or whose expression changed other
 * than by narrowing is `widens-exception`; removing or narrowing one is not a danger.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredManagedException } from '../../src/manifest/index.js';
import { diffZone, type EntrypointRule } from '../../src/plan/index.js';
import { desired, dManaged, entrypointOf, hex, live, lManaged, lSkip } from './fixtures.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const Scanner = '0242110ae62e44028a13bf4834780914';
const office = 'ip.src in {198.51.100.0/24}';
const entrypoint = (rules: EntrypointRule[]) => ({ id: hex('ep'), name: 'default', kind: 'zone' as const, phase: 'http_request_firewall_managed' as const, version: '3', rules });

function dException(ref: string, more: Partial<DesiredManagedException> = {}): DesiredManagedException {
  return { ref, skip: { ruleset: 'current' }, expression: office, description: '', enabled: true, after: 0, location: { file: 'zone.yaml', line: 1, column: 1 }, ...more };
}

const codes = (plan: ReturnType<typeof diffZone>) => plan.findings.filter((f) => f.level === 'danger').map((f) => `${f.code} ${f.ref}`);

describe('managed-rules exceptions in the plan', () => {
  const deployed = [lManaged('m1', MANAGED, { ref: 'managed' }), lManaged('o1', OWASP, { ref: 'owasp' })];
  const want = (...exceptions: DesiredManagedException[]) => desired({ managedRules: [dManaged('managed', MANAGED), dManaged('owasp', OWASP)], managedExceptions: exceptions });

  it('creates a new exception before the deployments, in one PUT, and guards it (skips-managed-rules)', () => {
    const plan = diffZone(want(dException('office')), live({ entrypoint: entrypoint(deployed) }));
    expect(plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind} ${c.ref}`)).toEqual(['create managed_exception office']);
    expect(entrypointOf(plan)!.body.rules.map((r) => [r.action, r.ref, r.id])).toEqual([['skip', 'office', undefined], ['execute', 'managed', hex('m1')], ['execute', 'owasp', hex('o1')]]);
    expect(codes(plan)).toEqual(['skips-managed-rules office']);
    expect(plan.findings.find((f) => f.code === 'skips-managed-rules')!.message)
      .toMatch(/: a new exception: the requests matching .+ are no longer inspected by every managed rule after it \(current\)$/);
  });

  it('warns (exception-skips-nothing) of a zone\'s skip rule kept after every execute rule it names; one before them is not warned of', () => {
    const late = lSkip('s9', office, { action_parameters: { rulesets: [MANAGED] } });
    const lateCurrent = lSkip('s8', office);
    const warnings = (rules: EntrypointRule[], wanted = want()) => diffZone(wanted, live({ entrypoint: entrypoint(rules) })).findings
      .filter((f) => f.code === 'exception-skips-nothing').map((f) => [f.level, f.ref]);
    // Kept unmanaged in its place, whether the plan writes the entry point or not.
    expect(warnings([...deployed, late, lateCurrent])).toEqual([['warning', hex('s9')], ['warning', hex('s8')]]);
    expect(warnings([...deployed, late], want(dException('office')))).toEqual([['warning', hex('s9')]]);
    // Between the two executes, skipping owasp (after it): it applies.
    expect(warnings([deployed[0]!, lSkip('s7', office, { action_parameters: { rulesets: [OWASP] } }), deployed[1]!])).toEqual([]);
    expect(warnings([late, ...deployed])).toEqual([]);
    expect(warnings([...deployed, lSkip('s6', office, { enabled: false })])).toEqual([]);
    const message = diffZone(want(), live({ entrypoint: entrypoint([...deployed, late]) })).findings.find((f) => f.code === 'exception-skips-nothing')!.message;
    expect(message).toContain('no execute rule after it deploys managed');
  });

  it('matches an exception by ref and keeps its id; no change is a no-op', () => {
    const zone = live({ entrypoint: entrypoint([lSkip('s1', office, { ref: 'office', logging: undefined }), ...deployed]) });
    const plan = diffZone(want(dException('office', { description: 'Migrated from firewall rule s1' })), zone);
    expect(plan.changes.map((c) => c.action)).toEqual(['no-op', 'no-op', 'no-op']);
    expect(entrypointOf(plan)).toBeNull();
  });

  it('adopts the migration\'s skip rule (ref = id) when the manifest names it by that ref', () => {
    const zone = live({ entrypoint: entrypoint([lSkip('s1', office), ...deployed]) });
    const plan = diffZone(want(dException(hex('s1'), { description: 'Migrated from firewall rule s1' })), zone);
    expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    expect(plan.unmanaged).toEqual([]);
  });

  it('widens-exception when it skips more (rules -> ruleset -> current) or its expression changes; narrowing and disabling are not dangers', () => {
    const rules = lSkip('s1', office, { ref: 'office', description: '', logging: undefined, action_parameters: { rules: { [MANAGED]: [Scanner] } } });
    const zone = live({ entrypoint: entrypoint([rules, ...deployed]) });
    expect(codes(diffZone(want(dException('office', { skip: { rulesets: [MANAGED] } })), zone))).toEqual(['widens-exception office']);
    expect(codes(diffZone(want(dException('office', { skip: { ruleset: 'current' } })), zone))).toEqual(['widens-exception office']);
    expect(codes(diffZone(want(dException('office', { skip: { rules: { [MANAGED]: [Scanner] } }, expression: 'ip.src in {198.51.0.0/16}' })), zone)))
      .toEqual(['widens-exception office']);
    const narrower = diffZone(want(dException('office', { skip: { rules: { [MANAGED]: [Scanner] } }, expression: `${office} and http.request.uri.path eq "/app"` })), zone);
    expect(narrower.changes.some((c) => c.kind === 'managed_exception' && c.action === 'update')).toBe(true);
    expect(codes(narrower)).toEqual([]);
    expect(codes(diffZone(want(dException('office', { skip: { rules: { [MANAGED]: [Scanner] } }, enabled: false })), zone))).toEqual([]);
    expect(codes(diffZone(want(), zone))).toEqual([]);
  });

  it('skips-managed-rules when a disabled exception is enabled', () => {
    const zone = live({ entrypoint: entrypoint([lSkip('s1', office, { ref: 'office', description: '', logging: undefined, enabled: false }), ...deployed]) });
    const enabled = diffZone(want(dException('office')), zone);
    expect(codes(enabled)).toEqual(['skips-managed-rules office']);
    expect(enabled.findings.find((f) => f.code === 'skips-managed-rules')!.message).toMatch(/: the exception is enabled: the requests it matches are no longer inspected by /);
  });
});
