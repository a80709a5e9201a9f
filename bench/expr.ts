/**
 * `npm run bench -- expr`: the Rules language.
 * 1. one request through 1,000 compiled firewall expressions, beside the same evaluation by the
 *    straightforward AST-walking interpreter (`src/expr/interpret.ts`), with the ratio;
 * 2. parse + type check of an expression at the 4 KiB limit, with cold and warm regex caches
 *    (beside JSON.parse of a 4 KiB document, a reference for "parsing 4 KiB in JS").
 * 3. the same 1,000 rules as hand-written JS closures over a plain record of the request (built per
 *    request, as the compiled rules load their fields per request): the floor of closure evaluation.
 * Targets (issue 3): compiled >= 3x the interpreter; one request through 1,000 rules < 100 us.
 * Target (issue 17): compiled within 1.5x of the hand-written closures.
 */
import { ExecutionContext, compile, parse, requestFields, type Expression } from '../src/expr/index.js';
import { interpret } from '../src/expr/interpret.js';
import { clearRegexCache, compileRegex } from '../src/expr/regex.js';
import { parseIp } from '../src/expr/ip.js';

// The best of several ~100 ms rounds, in wall time and in this process's CPU time: the machine is
// shared, and the minimum is the figure least disturbed by other processes (the mean would measure
// the neighbours). Comparisons and ratios use wall time.
interface Figures {
  wallUs: number;
  cpuUs: number;
}

function measure(label: string, fn: () => void, rounds = 12): Figures {
  for (let i = 0; i < 200; i++) fn();
  (globalThis as { gc?: () => void }).gc?.();
  let wallUs = Infinity;
  let cpuUs = Infinity;
  for (let r = 0; r < rounds; r++) {
    let iterations = 0;
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < 100_000_000n) {
      for (let i = 0; i < 10; i++) fn();
      iterations += 10;
      elapsed = process.hrtime.bigint() - start;
    }
    const used = process.cpuUsage(cpu);
    wallUs = Math.min(wallUs, Number(elapsed) / 1000 / iterations);
    cpuUs = Math.min(cpuUs, (used.user + used.system) / iterations);
  }
  console.log(`  ${label.padEnd(46)} ${wallUs.toFixed(2).padStart(9)} us/op (cpu ${cpuUs.toFixed(2).padStart(8)} us) ${(1e6 / wallUs).toFixed(0).padStart(8)} op/s`);
  return { wallUs, cpuUs };
}

/** A realistic expression just under 4,096 characters. */
function bigExpression(): string {
  const parts: string[] = [];
  let i = 0;
  const pieces = [
    (n: number) => `(http.host eq "shop-${n}.example.com" and http.request.uri.path contains "/checkout/${n}")`,
    (n: number) => `ip.src in {198.51.${n % 256}.0/24 2001:db8:${n.toString(16)}::/48 203.0.113.${n % 200}..203.0.113.${(n % 200) + 5}}`,
    (n: number) => `(http.user_agent matches "(?i)bot-${n}/\\d+" and not cf.client.bot)`,
    (n: number) => `any(http.request.headers["x-tenant"][*] in {"t${n}" "u${n}"})`,
    (n: number) => `lower(http.request.uri.query) wildcard "*debug=${n}*"`,
  ];
  for (;;) {
    const next = pieces[i % pieces.length]!(i);
    const candidate = parts.length === 0 ? next : `${parts.join(' or ')} or ${next}`;
    if (candidate.length > 4096) break;
    parts.push(next);
    i++;
  }
  return parts.join(' or ');
}

/** 1,000 firewall rules in a realistic mix (most decided by a cheap first test). */
function ruleSet(): string[] {
  const rules: string[] = [];
  for (let n = 0; rules.length < 1000; n++) {
    switch (n % 10) {
      case 0: rules.push(`http.host eq "site-${n}.example.com" and http.request.uri.path contains "/admin"`); break;
      case 1: rules.push(`ip.src in {192.0.2.${n % 250}/32 198.51.100.0/24} and not ssl`); break;
      case 2: rules.push(`http.request.uri.path wildcard "/api/v${n}/*" and http.request.method ne "GET"`); break;
      case 3: rules.push(`ip.src.country in {"KP" "IR" "C${n % 10}"} or ip.src.asnum eq ${64500 + n}`); break;
      case 4: rules.push(`any(http.request.headers["x-api-key"][*] eq "key-${n}")`); break;
      case 5: rules.push(`http.request.uri.query contains "token=${n}" and cf.edge.server_port in {80 8080}`); break;
      case 6: rules.push(`starts_with(http.request.uri.path, "/static/${n}/") and http.request.uri.path.extension in {"php" "asp"}`); break;
      case 7: rules.push(`http.user_agent contains "scanner-${n}" or http.referer eq "https://spam-${n}.example/"`); break;
      case 8: rules.push(`http.request.full_uri strict wildcard "https://www.example.com/p/${n}/*" and http.cookie contains "debug"`); break;
      case 9: rules.push(n % 50 === 9 ? `http.user_agent matches "(?i)(sqlmap|nikto)/${n}"` : `lower(http.host) eq "legacy-${n}.example.com"`); break;
    }
  }
  return rules;
}

/** The request as a hand-written rule set would see it: plain properties, converted once. */
interface Plain {
  host: string; path: string; method: string; query: string; ua: string; referer: string; cookie: string;
  ip: number; country: string; asn: number; port: number; ssl: boolean; fullUri: string; ext: string; bot: boolean;
  headers: Record<string, string[]>; lowerHost: string;
}

function plainOf(r: Record<string, unknown>): Plain {
  const headers: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(r['http.request.headers'] as Record<string, string[]>)) headers[k.toLowerCase()] = v;
  const host = r['http.host'] as string;
  return {
    host, path: r['http.request.uri.path'] as string, method: r['http.request.method'] as string, query: r['http.request.uri.query'] as string,
    ua: r['http.user_agent'] as string, referer: r['http.referer'] as string, cookie: r['http.cookie'] as string,
    ip: parseIp(r['ip.src'] as string) as number, country: r['ip.src.country'] as string, asn: r['ip.src.asnum'] as number,
    port: r['cf.edge.server_port'] as number, ssl: r.ssl as boolean, fullUri: r['http.request.full_uri'] as string,
    ext: r['http.request.uri.path.extension'] as string, bot: r['cf.client.bot'] as boolean, headers, lowerHost: host.toLowerCase(),
  };
}

/** The 1,000 rules of `ruleSet`, written by hand as closures (same tests, same order). */
function handWritten(): Array<(p: Plain) => boolean> {
  const out: Array<(p: Plain) => boolean> = [];
  for (let n = 0; out.length < 1000; n++) {
    switch (n % 10) {
      case 0: { const h = `site-${n}.example.com`; out.push((p) => p.host === h && p.path.includes('/admin')); break; }
      case 1: { const a = parseIp(`192.0.2.${n % 250}`) as number; const lo = parseIp('198.51.100.0') as number; const hi = lo + 255; out.push((p) => (p.ip === a || (p.ip >= lo && p.ip <= hi)) && !p.ssl); break; }
      case 2: { const pre = `/api/v${n}/`; out.push((p) => p.path.startsWith(pre) && p.method !== 'GET'); break; }
      case 3: { const c = new Set(['KP', 'IR', `C${n % 10}`]); const asn = 64500 + n; out.push((p) => c.has(p.country) || p.asn === asn); break; }
      case 4: { const k = `key-${n}`; out.push((p) => { const v = p.headers['x-api-key']; if (v === undefined) return false; for (const x of v) if (x === k) return true; return false; }); break; }
      case 5: { const t = `token=${n}`; out.push((p) => p.query.includes(t) && (p.port === 80 || p.port === 8080)); break; }
      case 6: { const pre = `/static/${n}/`; out.push((p) => p.path.startsWith(pre) && (p.ext === 'php' || p.ext === 'asp')); break; }
      case 7: { const u = `scanner-${n}`; const r = `https://spam-${n}.example/`; out.push((p) => p.ua.includes(u) || p.referer === r); break; }
      case 8: { const pre = `https://www.example.com/p/${n}/`; out.push((p) => p.fullUri.startsWith(pre) && p.cookie.includes('debug')); break; }
      case 9: {
        if (n % 50 === 9) { const re = compileRegex(`(?i)(sqlmap|nikto)/${n}`); out.push((p) => re.test(p.ua)); } else { const h = `legacy-${n}.example.com`; out.push((p) => p.lowerHost === h); }
        break;
      }
    }
  }
  return out;
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  const rules = ruleSet();
  const exprs: Expression[] = rules.map((r) => parse(r));
  const compiled = exprs.map((e) => compile(e));
  const request = requestFields({
    method: 'POST',
    url: 'https://www.example.com/p/42/cart?item=7&token=abc',
    headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0', 'X-Api-Key': 'key-504', Cookie: 'a=b; debug=1' },
    ip: '203.0.113.7',
    country: 'GB',
    asn: 13335,
    timestamp: 1_700_000_000,
  });
  let sink = 0;
  console.log('one request through 1,000 firewall expressions:');
  const compiledUs = measure('compiled closures (fresh ExecutionContext)', () => {
    const ctx = new ExecutionContext(request);
    for (const f of compiled) if (f(ctx)) sink++;
  });
  const interpretedUs = measure('baseline: AST-walking interpreter', () => {
    for (const e of exprs) if (interpret(e, request)) sink++;
  });
  const matchesCompiled = compiled.filter((f) => f(request)).length;
  const matchesInterpreted = exprs.filter((e) => interpret(e, request)).length;
  console.log(
    `  ratio ${(interpretedUs.wallUs / compiledUs.wallUs).toFixed(1)}x wall, ${(interpretedUs.cpuUs / compiledUs.cpuUs).toFixed(1)}x cpu (target >= 3x); ` +
      `${compiledUs.wallUs.toFixed(1)} us wall, ${compiledUs.cpuUs.toFixed(1)} us cpu per request (target < 100 us)`,
  );
  const hand = handWritten();
  const handRun = () => {
    const p = plainOf(request as Record<string, unknown>);
    for (const f of hand) if (f(p)) sink++;
  };
  const compiledRun = () => {
    const ctx = new ExecutionContext(request);
    for (const f of compiled) if (f(ctx)) sink++;
  };
  // Interleaved, best of each: the machine is shared and a neighbour's burst hits one side only.
  const pairs = [0, 1, 2].map(() => [measure('compiled closures', compiledRun, 6), measure('floor: hand-written closures (fresh record)', handRun, 6)] as const);
  const best = (i: 0 | 1, k: keyof Figures) => Math.min(...pairs.map((p) => p[i][k]));
  const vsHand = best(0, 'wallUs') / best(1, 'wallUs');
  const vsHandCpu = best(0, 'cpuUs') / best(1, 'cpuUs');
  const matchesHand = hand.filter((f) => f(plainOf(request as Record<string, unknown>))).length;
  console.log(`  compiled ${vsHand.toFixed(2)}x the hand-written closures in wall time, ${vsHandCpu.toFixed(2)}x in CPU time (target <= 1.5x: ${vsHand <= 1.5 ? 'met' : 'NOT met'})`);
  console.log(`  rules matched: compiled ${matchesCompiled}, interpreter ${matchesInterpreted}, hand-written ${matchesHand} (must agree); sink ${sink > 0 ? 'ok' : 'empty'}`);

  const source = bigExpression();
  const json = JSON.stringify({ rules: Array.from({ length: 60 }, (_, i) => ({ id: i, expr: 'x'.repeat(40) })) }).slice(0, 4096);
  const doc = json.endsWith('}') ? json : JSON.stringify({ pad: 'x'.repeat(4080) });
  console.log(`\nparse + check, ${source.length}-character expression (limit 4096):`);
  // Cold: every regex of the expression compiled again (the cache of compiled patterns emptied).
  const parseUs = measure('parse + type check, cold regex cache', () => {
    clearRegexCache();
    parse(source);
  });
  measure('parse + type check, warm regex cache', () => parse(source));
  const jsonUs = measure(`baseline: JSON.parse of ${doc.length} bytes`, () => JSON.parse(doc));
  console.log(
    `  throughput ${(source.length / parseUs.wallUs).toFixed(1)} MB/s cold (${(source.length / parseUs.cpuUs).toFixed(1)} MB/s of CPU);` +
      ` ${(parseUs.wallUs / jsonUs.wallUs).toFixed(1)}x the time of JSON.parse`,
  );
}
