/**
 * Manifests and helpers shared by the policy tests: a firewall-rules manifest that exercises every
 * action, priority order (explicit, key order, ties, no priority), paused rules and filters, a
 * shared filter, IP sets, `matches` and missing headers; and a manifest with managed rulesets and
 * the previous WAF.
 */
import { validateManifestText, type DesiredZone } from '../../src/manifest/index.js';
import { parseCasesText, type CaseFile } from '../../src/policy/index.js';

/**
 * Every firewall action, every ordering rule, on a migrated zone whose managed ruleset runs no rule
 * (the migration needs an enabled execute rule: seed 002's pending "disables the previous WAF as soon
 * as the new one is saved and enabled").
 */
export const firewallManifest = `zone: table.example.com
plan: enterprise
waf_migration: pending
managed_rules:
  - ruleset: managed
    overrides: { enabled: false }
filters:
  office:
    description: the office, by CIDR (IPv4, IPv6) and by range
    expression: ip.src in {192.0.2.0/24 2001:db8:1::/48 198.51.100.10..198.51.100.20}
  admin:
    expression: starts_with(http.request.uri.path, "/admin")
  maintenance:
    expression: http.request.uri.path eq "/maintenance"
    paused: true
firewall_rules:
  log-api:
    action: log
    priority: 1
    filter:
      expression: http.request.uri.path matches "^/api/v[0-9]+/"
  bypass-office-api:
    action: bypass
    products: [waf, securityLevel]
    priority: 2
    filter:
      expression: ip.src in {192.0.2.0/24} and starts_with(http.request.uri.path, "/api/")
  log-admin:
    action: log
    priority: 5
    filter: admin
  allow-office:
    action: allow
    priority: 10
    filter: office
  block-admin:
    action: block
    priority: 20
    filter: admin
  js-challenge-countries:
    action: js_challenge
    priority: 30
    filter:
      expression: ip.src.country in {"KP" "IR"}
  challenge-curl:
    action: managed_challenge
    priority: 30
    filter:
      expression: lower(http.user_agent) contains "curl"
  challenge-wordpress:
    action: challenge
    priority: 40
    filter:
      expression: http.request.uri.path matches "(?i)^/wp-(login|admin)"
  block-missing-key:
    action: block
    priority: 50
    filter:
      expression: starts_with(http.request.uri.path, "/api/") and not any(http.request.headers["x-api-key"][*] eq "s3cret")
  block-wrong-key:
    action: block
    filter:
      expression: starts_with(http.request.uri.path, "/partner/") and http.request.headers["x-api-key"][0] ne "s3cret"
  block-paused:
    action: block
    paused: true
    filter:
      expression: http.request.uri.path eq "/paused"
  block-maintenance:
    action: block
    filter: maintenance
  allow-late:
    action: allow
    priority: 100
    filter:
      expression: http.request.uri.path eq "/late"
  block-late:
    action: block
    priority: null
    filter:
      expression: http.request.uri.path eq "/late" or http.request.uri.path eq "/very-late"
`;

/** Managed rulesets with overrides on a zone that has not migrated (the previous WAF runs too). */
export const wafManifest = `zone: waf.example.com
plan: enterprise
managed_rules:
  - ruleset: managed
    overrides:
      rules:
        - { id: 5f6744fa026a4638bda5b3d7d5e015dd, action: log }
  - ruleset: owasp
    ref: owasp-strict
    paranoia_level: 2
    score_threshold: high
    action: block
previous_waf:
  packages:
    owasp: { sensitivity: low, action_mode: simulate }
firewall_rules:
  skip-waf-for-monitoring:
    action: bypass
    products: [waf]
    filter:
      expression: http.user_agent eq "monitor/1.0"
`;

/** A manifest's zone, or a failed assertion with its issues. */
export function desiredOf(text: string, file = 'zone.yaml'): DesiredZone {
  const result = validateManifestText(text, file);
  if (result.zone === undefined) throw new Error(`fixture manifest invalid: ${JSON.stringify(result.issues.slice(0, 3))}`);
  return result.zone;
}

/** Cases from text, or a failed assertion with their issues. */
export function casesOf(text: string, file = 'zone.tests.yaml'): CaseFile {
  const result = parseCasesText(text, file);
  if (result.cases === undefined) throw new Error(`fixture cases invalid: ${JSON.stringify(result.issues.slice(0, 3))}`);
  return result.cases;
}
