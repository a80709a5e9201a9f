/**
 * Repeats in `serve --credentials FILE` that the file's reader accepts but cannot mean what they
 * say: the same token (or e-mail + key pair) in two entries (which zones does it get?), the same
 * field twice in one entry (JSON keeps the last, silently: a `"zones"` written twice loses the
 * first list), and an entry repeating `ZONEWALL_SERVE_TOKEN` or the serve key pair, which already
 * have every zone. Each is refused with `FILE:LINE:COLUMN` of the repeat; no secret is shown.
 * Runs after the reader accepted the file (valid JSON, well-formed entries), on the same text.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';
import { CredentialEnv } from '../engine/index.js';
import { ZonewallError } from '../errors.js';

/** `FILE:LINE:COLUMN` of an offset. */
function at(file: string, lines: LineCounter, offset: number | undefined): string {
  const { line, col } = lines.linePos(offset ?? 0);
  return `${file}:${line}:${col}`;
}

/** The string value of a field of an entry, when it is one. */
function field(entry: YAMLMap, name: string): string | undefined {
  const v = entry.get(name);
  return typeof v === 'string' ? v : undefined;
}

/**
 * Refuses the first repeat of the credentials file `file` (see the file comment), `env` holding the
 * serve credentials of the environment.
 */
export function refuseRepeatedCredentials(file: string, env: NodeJS.ProcessEnv): void {
  const text = readFileSync(file, 'utf8');
  const lines = new LineCounter();
  // JSON is YAML: the YAML reader gives positions (JSON.parse gives none); duplicate keys are found below.
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const top = doc.contents;
  const list = isSeq(top) ? top : isMap(top) ? top.get('credentials', true) : undefined;
  if (!isSeq(list)) return;
  const envToken = env[CredentialEnv.token] || undefined;
  const envPair = env[CredentialEnv.email] && env[CredentialEnv.key] ? `${env[CredentialEnv.email]}\u0000${env[CredentialEnv.key]}` : undefined;
  const seen = new Map<string, { index: number; line: number }>();
  list.items.forEach((entry, i) => {
    if (!isMap(entry)) return;
    const keys = new Set<string>();
    for (const pair of entry.items) {
      const name = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (name === undefined) continue;
      if (keys.has(name)) {
        throw new ZonewallError('ERR_AUTH', `${at(file, lines, isScalar(pair.key) ? pair.key.range?.[0] : undefined)}: credentials[${i}] has "${name}" twice (JSON keeps only the last, silently): keep one`);
      }
      keys.add(name);
    }
    const token = field(entry, 'token');
    const email = field(entry, 'email');
    const key = field(entry, 'key');
    const identity = token !== undefined ? `token\u0000${token}` : email !== undefined && key !== undefined ? `key\u0000${email}\u0000${key}` : undefined;
    if (identity === undefined) return;
    const where = at(file, lines, entry.range?.[0]);
    const what = token !== undefined ? 'token' : 'e-mail and key';
    if (token !== undefined && token === envToken) {
      throw new ZonewallError('ERR_AUTH', `${where}: credentials[${i}] repeats the token of ${CredentialEnv.token}, which already has every zone (the value is not shown): remove the entry or unset the variable`);
    }
    if (token === undefined && envPair !== undefined && `${email}\u0000${key}` === envPair) {
      throw new ZonewallError('ERR_AUTH', `${where}: credentials[${i}] repeats the key pair of ${CredentialEnv.email} and ${CredentialEnv.key}, which already has every zone (the value is not shown): remove the entry or unset the variables`);
    }
    const first = seen.get(identity);
    if (first !== undefined) {
      throw new ZonewallError('ERR_AUTH', `${where}: credentials[${i}] repeats the ${what} of credentials[${first.index}] (line ${first.line}; the value is not shown): one entry per credential; put all its zones in that entry's "zones"`);
    }
    seen.set(identity, { index: i, line: lines.linePos(entry.range?.[0] ?? 0).line });
  });
}
