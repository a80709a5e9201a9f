/** The cases file rewrite: old rule names and words become the custom rules', comments stay. */
import { describe, expect, it } from 'vitest';
import { rewriteCases } from '../../../src/migrate/index.js';

const refOf = new Map([['allow-office', 'allow-office'], ['log-api', 'log-api-2']]);

describe('rewriteCases', () => {
  it('renames matched firewall rules, turns allow into allowed: true and bypass into skip', () => {
    const text = `# cases of the shop
cases:
  - name: office   # trusted
    request: { path: /api, ip: 203.0.113.9 }
    expect: { action: allow, matched: firewall_rules.allow-office }
  - name: outsiders
    request: { path: /api }
    expect:
      action: bypass
      matched: [firewall_rules.log-api, managed_rules.managed, firewall_rules.gone]
`;
    expect(rewriteCases(text, refOf)).toBe(`# cases of the shop
cases:
  - name: office # trusted
    request: { path: /api, ip: 203.0.113.9 }
    expect: { matched: custom_rules.allow-office, allowed: true }
  - name: outsiders
    request: { path: /api }
    expect:
      action: skip
      matched: [ custom_rules.log-api-2, managed_rules.managed, firewall_rules.gone ]
`);
  });

  it('keeps a file that names no old rule byte for byte, and a list of cases too', () => {
    const text = '- name: a   # x\n  request: {}\n  expect: { action: block }\n';
    expect(rewriteCases(text, refOf)).toBe(text);
    expect(rewriteCases('- name: a\n  request: {}\n  expect: { allowed: true, action: allow }\n', refOf)).toBe('- name: a\n  request: {}\n  expect: { allowed: true }\n');
  });
});
