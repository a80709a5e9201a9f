/**
 * The case table for the firewall fixture: every action, priority order, paused rules and filters,
 * a shared filter, IP sets, `matches` and missing headers. Each row is a case (as a cases file
 * writes it) and the verdict the zone must give: the final action, the deciding rule and every
 * matched rule in evaluation order. Offline and live runs are both checked against it.
 */
export interface Row {
  name: string;
  request: Record<string, unknown>;
  action: string | null;
  rule: string | null;
  matched: string[];
}

const fw = (key: string) => `firewall_rules.${key}`;
const outside = '203.0.113.5';

/** The table. */
export const rows: Row[] = [
  { name: 'block: admin from outside', request: { path: '/admin/users', ip: outside }, action: 'block', rule: fw('block-admin'), matched: [fw('log-admin'), fw('block-admin')] },
  { name: 'allow: admin from the office (shared filter: log-admin, then allow-office)', request: { path: '/admin', ip: '192.0.2.7' }, action: 'allow', rule: fw('allow-office'), matched: [fw('log-admin'), fw('allow-office')] },
  { name: 'IP set: office over IPv6', request: { path: '/admin', ip: '2001:db8:1:ff::9' }, action: 'allow', rule: fw('allow-office'), matched: [fw('log-admin'), fw('allow-office')] },
  { name: 'IP set: inside the office range', request: { path: '/', ip: '198.51.100.20' }, action: 'allow', rule: fw('allow-office'), matched: [fw('allow-office')] },
  { name: 'IP set: just past the office range', request: { path: '/', ip: '198.51.100.21' }, action: null, rule: null, matched: [] },
  { name: 'IP set: another IPv6 prefix is not the office', request: { path: '/admin', ip: '2001:db8:2::9' }, action: 'block', rule: fw('block-admin'), matched: [fw('log-admin'), fw('block-admin')] },
  { name: 'log: API v2 with the key goes on', request: { path: '/api/v2/orders', ip: outside, headers: { 'X-Api-Key': 's3cret' } }, action: null, rule: null, matched: [fw('log-api')] },
  { name: 'bypass: the office API (log, bypass, then allow)', request: { path: '/api/v1/x', ip: '192.0.2.9' }, action: 'allow', rule: fw('allow-office'), matched: [fw('log-api'), fw('bypass-office-api'), fw('allow-office')] },
  { name: 'managed_challenge: curl', request: { path: '/', ip: outside, headers: { 'User-Agent': 'curl/8.5.0' } }, action: 'managed_challenge', rule: fw('challenge-curl'), matched: [fw('challenge-curl')] },
  { name: 'js_challenge: a listed country', request: { path: '/', ip: outside, country: 'IR' }, action: 'js_challenge', rule: fw('js-challenge-countries'), matched: [fw('js-challenge-countries')] },
  { name: 'priority tie: managed_challenge runs before js_challenge', request: { path: '/', ip: outside, country: 'KP', headers: { 'User-Agent': 'CURL' } }, action: 'managed_challenge', rule: fw('challenge-curl'), matched: [fw('challenge-curl')] },
  { name: 'challenge: matches with (?i)', request: { path: '/WP-Login.php', ip: outside }, action: 'challenge', rule: fw('challenge-wordpress'), matched: [fw('challenge-wordpress')] },
  { name: 'matches: the pattern is anchored', request: { path: '/blog/wp-login.php', ip: outside }, action: null, rule: null, matched: [] },
  { name: 'missing header: not any(... eq ...) blocks', request: { path: '/api/orders', ip: outside }, action: 'block', rule: fw('block-missing-key'), matched: [fw('block-missing-key')] },
  { name: 'missing header: [0] ne ... is false, so it passes', request: { path: '/partner/feed', ip: outside }, action: null, rule: null, matched: [] },
  { name: 'wrong header value is blocked', request: { path: '/partner/feed', ip: outside, headers: { 'x-api-key': 'guess' } }, action: 'block', rule: fw('block-wrong-key'), matched: [fw('block-wrong-key')] },
  { name: 'paused rule does not run', request: { path: '/paused', ip: outside }, action: null, rule: null, matched: [] },
  { name: 'paused filter does not run', request: { path: '/maintenance', ip: outside }, action: null, rule: null, matched: [] },
  { name: 'no priority runs after every prioritised rule', request: { path: '/late', ip: outside }, action: 'allow', rule: fw('allow-late'), matched: [fw('allow-late')] },
  { name: 'no priority still runs', request: { path: '/very-late', ip: outside }, action: 'block', rule: fw('block-late'), matched: [fw('block-late')] },
];

/** The table as a cases file whose every expectation holds. */
export function tableCasesYaml(): string {
  const lines = ['zone: table.example.com', 'cases:'];
  for (const row of rows) {
    const expect: Record<string, unknown> = { matched: row.matched };
    if (row.action === null || row.action === 'allow') expect.allowed = true;
    else expect.action = row.action;
    lines.push(`  - name: ${JSON.stringify(row.name)}`, `    request: ${JSON.stringify(row.request)}`, `    expect: ${JSON.stringify(expect)}`);
  }
  return `${lines.join('\n')}\n`;
}
