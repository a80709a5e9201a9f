/**
 * The Terraform end of the firewall rules upgrade: the converted custom rules as one
 * `cloudflare_ruleset` of the `http_request_firewall_custom` phase (provider v5: `rules` is a list
 * attribute, every rule with a `ref` so edits keep its id; reference/custom-rules.md §5), and the
 * steps that finish in Terraform: import the entry point the cutover made, `terraform state rm`
 * the `cloudflare_filter` / `cloudflare_firewall_rule` addresses (state first, then config, as the
 * service's upgrade guide says), and a plan that shows no changes.
 */
import type { DesiredCustomRule } from '../../manifest/index.js';

/** An HCL string literal: JSON escapes, plus HCL's template sequences `${` and `%{`. */
export function hclString(value: string): string {
  return JSON.stringify(value).replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

function hclList(values: readonly string[]): string {
  return `[${values.map(hclString).join(', ')}]`;
}

function ruleHcl(rule: DesiredCustomRule): string {
  const lines = [
    `ref = ${hclString(rule.ref)}`,
    `description = ${hclString(rule.description)}`,
    `expression = ${hclString(rule.expression)}`,
    `action = ${hclString(rule.action)}`,
  ];
  const p = rule.actionParameters;
  if (p !== undefined) {
    const params: string[] = [];
    if (p.ruleset !== undefined) params.push(`ruleset = ${hclString(p.ruleset)}`);
    if (p.phases !== undefined) params.push(`phases = ${hclList(p.phases)}`);
    if (p.products !== undefined) params.push(`products = ${hclList(p.products)}`);
    if (p.response !== undefined) {
      params.push(`response = { status_code = ${p.response.status_code}, content_type = ${hclString(p.response.content_type)}, content = ${hclString(p.response.content)} }`);
    }
    lines.push(`action_parameters = {\n        ${params.join('\n        ')}\n      }`);
  }
  if (rule.logging !== undefined) lines.push(`logging = { enabled = ${rule.logging.enabled} }`);
  lines.push(`enabled = ${rule.enabled}`);
  return `    {\n      ${lines.join('\n      ')}\n    }`;
}

/**
 * The custom rules as a `cloudflare_ruleset` resource, in list (evaluation) order.
 * @example renderCustomRulesetHcl('custom_rules', zoneId, conversion.customRules)
 */
export function renderCustomRulesetHcl(name: string, zoneId: string, rules: readonly DesiredCustomRule[]): string {
  return [
    `resource "cloudflare_ruleset" ${hclString(name)} {`,
    `  zone_id = ${hclString(zoneId)}`,
    '  name    = "default"',
    '  kind    = "zone"',
    '  phase   = "http_request_firewall_custom"',
    '  rules = [',
    rules.map(ruleHcl).join(',\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

/** What the Terraform steps need. */
export interface TerraformFinishInput {
  /** The `cloudflare_ruleset` resource name in the HCL. */
  resourceName: string;
  zoneId: string;
  /** Addresses of the filter and firewall rule resources the upgrade replaces. */
  addresses: readonly string[];
  /** The manifest the cutover runs on. */
  manifest: string;
  /** The state file it was converted from. */
  state: string;
}

/**
 * The steps after the conversion, for the user to run, in order.
 * @example process.stderr.write(renderTerraformFinish({ resourceName: 'custom_rules', zoneId, addresses, manifest: 'zone.yaml' }));
 */
export function renderTerraformFinish(input: TerraformFinishInput): string {
  const quoted = input.addresses.map((a) => `'${a.replace(/'/g, "'\\''")}'`);
  return [
    'To finish:',
    `  1. zonewall migrate ${input.manifest} --from-terraform-state ${input.state} --write   # the manifest of the firewall rules; their live objects adopted (plan: no changes)`,
    `  2. zonewall migrate firewall-cutover ${input.manifest}   # the zone moves to the custom rules, step by step; the manifest is rewritten`,
    '  3. add the cloudflare_ruleset above to your configuration, then import the entry point the cutover made:',
    `       terraform import cloudflare_ruleset.${input.resourceName} zones/${input.zoneId}/<the id of the zone's http_request_firewall_custom entry point>`,
    `  4. remove the ${input.addresses.length} old resource(s) from the state first, then their blocks from the configuration:`,
    ...(quoted.length === 0 ? [] : [`       terraform state rm ${quoted.join(' ')}`]),
    '  5. terraform plan   # expected: No changes.',
    '',
  ].join('\n');
}
