/**
 * Zones that look like real ones, for the benchmarks (issue 35): expressions in an even mixture of
 * the eight kinds real zones write, descriptions on some rules, explicit priorities, custom rules
 * beside the firewall rules. Deterministic: the same arguments build the same text. Shared by the
 * benchmarks and the tests that check the fixture itself, so it lives in `support/`.
 */

/** The eight kinds of expression, in the order the mixture cycles through them. */
export const ExpressionKinds = [
  'ip eq',
  'ip in set + method',
  'contains + not bot',
  'matches (?i) user agent',
  'lower(host) eq',
  'starts_with + extension in',
  'any(headers[*]) eq',
  'contains or referer eq',
] as const;
export type ExpressionKind = (typeof ExpressionKinds)[number];

/** The `n`th expression of a kind: distinct for every `n` (the service refuses two filters with one expression). */
export function realisticExpression(kind: ExpressionKind, n: number): string {
  const a = (n >> 8) & 255;
  const b = n & 255;
  switch (kind) {
    case 'ip eq': return `ip.src eq 10.${a}.${b}.1`;
    case 'ip in set + method': return `ip.src in {198.51.${b}.0/24 2001:db8:${n.toString(16)}::/48 203.0.${a}.${b % 200}..203.0.${a}.${(b % 200) + 9}} and http.request.method eq "POST"`;
    case 'contains + not bot': return `http.request.uri.path contains "/wp-${n}/" and not cf.client.bot`;
    case 'matches (?i) user agent': return `http.user_agent matches "(?i)scanner-${n}/[0-9]+"`;
    case 'lower(host) eq': return `lower(http.host) eq "legacy-${n}.example.com"`;
    case 'starts_with + extension in': return `starts_with(http.request.uri.path, "/static/${n}/") and http.request.uri.path.extension in {"php" "asp" "jsp"}`;
    case 'any(headers[*]) eq': return `any(http.request.headers["x-api-key"][*] eq "key-${n}")`;
    case 'contains or referer eq': return `http.request.uri.path contains "/export/${n}" or http.referer eq "https://spam-${n}.example/"`;
  }
}

/** The `i`th expression of the even mixture. */
export function mixedExpression(i: number): string {
  return realisticExpression(ExpressionKinds[i % ExpressionKinds.length]!, i);
}

/** One line saying what the mixture is, for a benchmark's output. */
export function mixtureLine(): string {
  return `an even mixture of ${ExpressionKinds.length} expression kinds (${ExpressionKinds.join('; ')}), descriptions on 1 rule in 3, explicit priorities`;
}

const RuleActions = ['block', 'managed_challenge', 'js_challenge', 'log', 'challenge', 'allow'] as const;
const CustomActions = ['block', 'managed_challenge', 'log', 'js_challenge'] as const;

/**
 * A zone manifest: `rules` firewall rules, each with its own filter of the mixture, priorities in
 * bands of 10 (ties within a band), a description on one rule in three, and `customRules` custom
 * rules of the same mixture (expressions shifted so they differ from the filters').
 */
export function realisticZone(options: { zone: string; rules: number; customRules?: number }): string {
  const lines = [`zone: ${options.zone}`, 'plan: enterprise', 'filters:'];
  for (let i = 0; i < options.rules; i++) {
    lines.push(`  f${i}:`, `    expression: '${mixedExpression(i)}'`);
    if (i % 3 === 1) lines.push(`    description: 'filter ${i}: ${ExpressionKinds[i % ExpressionKinds.length]}'`);
  }
  lines.push('firewall_rules:');
  for (let i = 0; i < options.rules; i++) {
    lines.push(`  r${i}:`, `    action: ${RuleActions[i % RuleActions.length]}`, `    filter: f${i}`, `    priority: ${1 + Math.floor(i / 10)}`);
    if (i % 3 === 0) lines.push(`    description: 'rule ${i} (ticket SEC-${1000 + i})'`);
  }
  const custom = options.customRules ?? 0;
  if (custom > 0) {
    lines.push('custom_rules:');
    for (let i = 0; i < custom; i++) {
      lines.push(`  c${i}:`, `    action: ${CustomActions[i % CustomActions.length]}`, `    expression: '${mixedExpression(options.rules + i)}'`);
      if (i % 3 === 2) lines.push(`    description: 'custom ${i}'`);
    }
  }
  return `${lines.join('\n')}\n`;
}
