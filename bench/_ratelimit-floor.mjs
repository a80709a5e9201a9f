// The floor of `bench ratelimit`'s CLI run, as a fresh process: what any tool that simulates the
// burst must at least do. It reads the cases file (the burst's count and its `vary` lists, block
// scalars of one value a line, as bench/ratelimit.ts writes it), makes each request's client key
// from the values it varies (request i takes value i mod n of each list, as bursts do: the keys
// repeat with the lists' common cycle) and counts the keys in a plain Map. No zonewall code; prints the number of counters.
import { readFileSync } from 'node:fs';

const lines = readFileSync(process.argv[2], 'utf8').split('\n');
const lists = [];
let count = 0;
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  const n = /^\s+count: (\d+)$/.exec(line);
  if (n !== null) count = Number(n[1]);
  if (!line.endsWith(': |')) continue;
  const indent = line.length - line.trimStart().length;
  const values = [];
  for (; i + 1 < lines.length && lines[i + 1].length - lines[i + 1].trimStart().length > indent; i++) values.push(lines[i + 1].trim());
  lists.push(values);
}
// The keys repeat with the lists' common cycle: each is made once, then counted per request.
const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
const cycle = Math.min(count, lists.reduce((c, v) => (c * v.length) / gcd(c, v.length), 1));
const cycleKeys = Array.from({ length: cycle }, (_, i) => lists.map((v) => v[i % v.length]).join('\u0001'));
const keys = new Map();
for (let i = 0; i < count; i++) {
  const key = cycleKeys[i % cycle];
  keys.set(key, (keys.get(key) ?? 0) + 1);
}
process.stdout.write(`${keys.size}\n`);
