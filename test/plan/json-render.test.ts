import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  createStyle, diffZone, planDocument, planFromJson, planToJson, renderPlanMarkdown, renderPlanText, type Plan,
} from '../../src/plan/index.js';
import { dFilter, desired, dManaged, dRule, hex, lFilter, live, lRule } from './fixtures.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

/** A plan with one of everything: create, update (expression), rename, replace, delete, unmanaged, findings. */
function samplePlan(): Plan {
  const api = lFilter('f1', 'http.request.uri.path matches "^/api/"', { ref: 'api' });
  const old = lFilter('f2', 'ip.src eq 192.0.2.1', { ref: 'old' });
  const locked = lFilter('f3', 'http.user_agent contains "sqlmap"', { locked: true });
  const stray = lFilter('f4', 'ip.src eq 198.51.100.1');
  return diffZone(desired({
    filters: [
      dFilter('api', 'http.request.uri.path matches "^/api/v2/"', { description: 'API | traffic' }),
      dFilter('bots', 'http.user_agent contains "nikto"', { inline: true }),
      dFilter('fresh', 'ip.src eq 203.0.113.5'),
    ],
    firewallRules: [dRule('block-api', 'api', { priority: 1 }), dRule('bots', 'bots', { priority: 2 }), dRule('fresh', 'fresh', { priority: 3, action: 'log' })],
    managedRules: [dManaged('managed', 'efb7b8c949ac4650a09736fc376e9aee')],
  }), live({
    filters: [api, old, locked, stray],
    firewallRules: [lRule('r1', api, { ref: 'block-api', priority: 1 }), lRule('r2', locked, { ref: 'bots', priority: 2 }), lRule('r3', old, { ref: 'gone', priority: 9 })],
  }));
}

describe('JSON plan', () => {
  it('is valid against schemas/plan.schema.json and round-trips', () => {
    const plan = samplePlan();
    const doc = planDocument([plan], [{ file: 'bad.yaml', code: 'ERR_MANIFEST', message: 'broken' }], { zonewallVersion: '0.1.0', provider: { kind: 'engine', description: 'embedded engine at .zonewall' } });
    const ok = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(doc).toMatchObject({ format_version: '2.0', kind: 'zonewall.plan', summary: plan.summary });
    const back = planFromJson(JSON.parse(JSON.stringify(planToJson(plan))));
    expect(back).toEqual(plan);
  });

  it('says whether the plan is applicable and safe', () => {
    const json = planToJson(samplePlan());
    expect(json).toMatchObject({ applicable: true, safe: true });
    const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const weakened = diffZone(desired({ filters: [dFilter('f', f.expression)], firewallRules: [dRule('r', 'f', { action: 'allow' })] }),
      live({ filters: [f], firewallRules: [lRule('r', f, { ref: 'r' })] }));
    expect(planToJson(weakened)).toMatchObject({ applicable: true, safe: false });
    const duplicate = diffZone(desired({ filters: [dFilter('g', f.expression)] }), live({ filters: [lFilter('u', f.expression)] }));
    expect(planToJson(duplicate)).toMatchObject({ applicable: false, safe: true });
  });

  it('rejects a document of an unknown kind', () => {
    expect(validate({ format_version: '1.0', kind: 'other', zones: [], errors: [], summary: { add: 0, change: 0, replace: 0, destroy: 0 } })).toBe(false);
  });
});

describe('text rendering', () => {
  const text = renderPlanText(samplePlan(), createStyle(false));

  it('draws each action with its glyph and the summary line', () => {
    expect(text).toContain(`  ~ filter "api" (id ${hex('f1')})`);
    expect(text).toContain('  + filter "fresh"');
    expect(text).toContain(`  -/+ filter "bots" (id ${hex('f3')})`);
    expect(text).toContain(`  - firewall_rule "gone" (id ${hex('r3')})`);
    expect(text).toContain('  + managed_ruleset "managed"');
    expect(text).toMatch(/Plan: 3 to add, 1 to change, 2 to replace, 2 to destroy\.\n$/);
  });

  it('shows a word-level diff of a changed expression and old -> new of other attributes', () => {
    expect(text).toContain('expression: http.request.uri.path matches "^/api/{+v2/+}"');
    expect(text).toContain('expression: http.user_agent contains "[-sqlmap-]{+nikto+}"');
    expect(text).toContain('description: "" -> "API | traffic"');
  });

  it('lists unmanaged objects, findings and the call estimate', () => {
    expect(text).toContain(`? filter ${hex('f4')}: ip.src eq 198.51.100.1`);
    expect(text).toMatch(/API calls: \d+ write requests \(firewall_rules\.delete_first 1, filters\.update 1, filters\.create 1, .*entrypoint 1.*\)\.\n/);
  });

  it('has no escape codes without color, and colors with it', () => {
    expect(text).not.toContain('\u001b[');
    expect(renderPlanText(samplePlan(), createStyle(true))).toContain('\u001b[32m+\u001b[39m');
  });

  it('says when there is nothing to do', () => {
    const out = renderPlanText(diffZone(desired(), live()));
    expect(out).toContain('No changes. example.com matches its manifest.');
    expect(out).toContain('Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect(out).not.toContain('API calls');
  });
});

describe('markdown rendering', () => {
  it('renders a table with escaped cells and an expression diff block', () => {
    const md = renderPlanMarkdown(samplePlan());
    expect(md).toContain('### zonewall plan: example.com');
    expect(md).toContain('**Plan: 3 to add, 1 to change, 2 to replace, 2 to destroy.**');
    expect(md).toContain('| `~` | filter | `api` |');
    expect(md).toContain('API \\| traffic');
    expect(md).toContain('```diff\n# filter "api"\n- http.request.uri.path matches "^/api/"\n+ http.request.uri.path matches "^/api/v2/"');
    expect(md).toContain('1 unmanaged object(s)');
  });
});

describe('override changes, one line per override', () => {
  const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
  const SCORE = '6179ae15870a4bb7b2d480d4843b323c';
  const RULE = '9d5d6f8a3b0c4e21a7f4c2d1e0b9a8f7';
  function overridePlan(): Plan {
    return diffZone(desired({ managedRules: [dManaged('owasp', OWASP, { overrides: {
      categories: [{ category: 'paranoia-level-4', enabled: false }, { category: 'xss', action: 'block' }],
      rules: [{ id: SCORE, score_threshold: 60, action: 'block' }, { id: RULE, action: 'block' }],
    } })] }), live({ entrypoint: { id: hex('ep'), name: 'default', kind: 'zone', phase: 'http_request_firewall_managed', version: '2', rules: [
      { id: hex('o'), ref: 'owasp', version: '1', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: OWASP, overrides: {
        categories: [{ category: 'xss', action: 'log' }],
        rules: [{ id: SCORE, score_threshold: 40, action: 'block' }, { id: RULE, action: 'log' }],
      } } },
    ] } }));
  }

  it('renders text with the rule, the field and old -> new, never a JSON blob', () => {
    const text = renderPlanText(overridePlan());
    expect(text).toContain('overrides: category paranoia-level-4 enabled: (default) -> false');
    expect(text).toContain('overrides: category xss action: log -> block');
    expect(text).toContain('overrides: rule 6179ae15… score_threshold: 40 -> 60');
    expect(text).toContain('overrides: rule 9d5d6f8a… action: log -> block');
    expect(text).not.toContain('{"categories"');
  });

  it('renders markdown the same way', () => {
    const md = renderPlanMarkdown(overridePlan());
    expect(md).toContain('overrides: rule 6179ae15… score_threshold: `40` → `60`');
    expect(md).not.toContain('{"categories"');
  });
});
