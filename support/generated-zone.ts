/**
 * A generated zone manifest for the firewall rules upgrade: N firewall rules over M shared filters
 * (seeded, so every run builds the same zone), with every action, explicit priorities that tie,
 * rules without priority (`null`), rules ordered by key, paused rules and paused filters, and
 * expressions using prefixes, IP ranges and CIDRs, sets, contains, comparisons, header look-ups,
 * wildcards and regexes, combined with and/or/not. Used by the tests of `test/migrate/firewall/` and by
 * `bench/firewall-upgrade.ts`, so it lives in `support/` (shared by both, importing neither).
 */

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const Actions = ['log', 'bypass', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block'] as const;
const Products = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'];

function term(i: number, r: () => number): string {
  const n = Math.floor(r() * 1000);
  switch (i % 10) {
    case 0: return `starts_with(http.request.uri.path, "/app${n % 40}")`;
    case 1: return `ip.src in {10.${n % 250}.0.0/16 192.0.2.${n % 200}..192.0.2.${(n % 200) + 20}}`;
    case 2: return `ip.src.country in {"C${n % 30}" "D${n % 17}"}`;
    case 3: return `http.user_agent contains "bot${n % 50}"`;
    case 4: return `http.request.method eq "${['POST', 'PUT', 'DELETE', 'PATCH'][n % 4]}"`;
    case 5: return `cf.threat_score gt ${n % 60}`;
    case 6: return `http.request.headers["x-tenant"][0] eq "t${n % 25}"`;
    case 7: return `http.request.uri.path wildcard "/files${n % 20}/*"`;
    case 8: return `http.request.uri.path matches "^/v${n % 9}/items/[0-9]+$"`;
    default: return `http.host eq "h${n % 30}.example.com"`;
  }
}

function expression(i: number, r: () => number): string {
  const a = term(i, r);
  const b = term(i + 1 + Math.floor(r() * 8), r);
  switch (Math.floor(r() * 4)) {
    case 0: return a;
    case 1: return `${a} and ${b}`;
    case 2: return `${a} or ${b}`;
    default: return `${a} and not ${b}`;
  }
}

/** The manifest text of a generated zone. */
export function generatedZone(options: { rules: number; filters: number; seed?: number; zone?: string }): string {
  const r = random(options.seed ?? 16);
  const lines = [`zone: ${options.zone ?? 'upgrade.example.com'}`, 'plan: enterprise', '', '# shared filters', 'filters:'];
  const seen = new Set<string>();
  for (let f = 0; f < options.filters; f++) {
    let e = expression(f, r);
    // The service refuses two filters with one expression.
    if (seen.has(e)) e = `${e} or http.host eq "u${f}.example.com"`;
    seen.add(e);
    lines.push(`  f${f}:`, `    expression: '${e}'`);
    if (f % 37 === 5) lines.push('    paused: true');
  }
  lines.push('', '# firewall rules', 'firewall_rules:');
  // A rule without priority runs after the one above it, so none may follow a `priority: null`.
  let nullSeen = false;
  for (let i = 0; i < options.rules; i++) {
    const action = Actions[i % Actions.length]!;
    // Every filter used at least once, some by several rules.
    const filter = i < options.filters ? i : Math.floor(r() * options.filters);
    lines.push(`  r${i}:`, `    action: ${action}`, `    filter: f${filter}`);
    const p = r();
    if (p < 0.4 || (nullSeen && p < 0.9)) lines.push(`    priority: ${1 + Math.floor(r() * 12)}`);
    else if (p < 0.55 || nullSeen) {
      lines.push('    priority: null');
      nullSeen = true;
    }
    if (action === 'bypass') lines.push(`    products: [${Products.filter(() => r() < 0.4).concat(Products[i % Products.length]!).filter((x, k, all) => all.indexOf(x) === k).join(', ')}]`);
    if (i % 23 === 7) lines.push('    paused: true');
    if (i % 11 === 3) lines.push(`    description: rule ${i}`);
  }
  return `${lines.join('\n')}\n`;
}
