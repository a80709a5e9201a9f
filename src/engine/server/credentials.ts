/**
 * Where `zonewall serve` gets the credentials it accepts: environment variables (all zones) and an
 * optional JSON file with per-zone scopes (read by `credentials-file.ts`; the Worker reads the same
 * JSON from its secret `ZONEWALL_CREDENTIALS`): no file system here, the Worker bundles this file.
 * Never from argv (a path is not a secret), and no secret is ever printed: errors name the variable
 * or the file entry, not the value.
 *
 * - `ZONEWALL_SERVE_TOKEN`: a bearer token (`Authorization: Bearer ...`) for every zone.
 *   Tokens and keys (here and in the file) are at least 8 characters, with no whitespace.
 * - `ZONEWALL_SERVE_AUTH_EMAIL` + `ZONEWALL_SERVE_AUTH_KEY`: an `X-Auth-Email` / `X-Auth-Key` pair
 *   for every zone (both or neither).
 * - `--credentials FILE`: `{"credentials": [{"token": "...", "zones": ["example.com"]},
 *   {"email": "a@example.com", "key": "...", "zones": "*"}]}` (a bare array is accepted too);
 *   `zones` is `"*"` or a list of zone names or ids, and is required. A key written twice, a
 *   credential in two entries, or an entry repeating the environment's is refused, located.
 */
import { ZonewallError } from '../../errors.js';
import { duplicateKeyMessage, firstDuplicateKey, jsonErrorPlace, lineColumn } from '../../json-text.js';

/** A credential `zonewall serve` accepts, with the zones it may touch. */
export type Credential =
  | { type: 'token'; token: string; zones: '*' | string[] }
  | { type: 'key'; email: string; key: string; zones: '*' | string[] };

/** The environment variables read by `serveCredentialsFromEnv`. */
export const CredentialEnv = {
  token: 'ZONEWALL_SERVE_TOKEN',
  email: 'ZONEWALL_SERVE_AUTH_EMAIL',
  key: 'ZONEWALL_SERVE_AUTH_KEY',
} as const;

/** What a secret (a token or a key) must be: long enough not to be guessed in a few tries, and one word. */
export const CredentialLimits = {
  /** Fewest characters of a token or key, from the environment or the file. */
  secretMinLength: 8,
} as const;

/** The credentials of the environment (`ZONEWALL_SERVE_TOKEN`, the key pair): every zone. */
export function serveCredentialsFromEnv(env: Readonly<Record<string, string | undefined>>): Credential[] {
  const out: Credential[] = [];
  const token = env[CredentialEnv.token];
  if (token !== undefined && token !== '') out.push({ type: 'token', token: checkSecret(token, CredentialEnv.token), zones: '*' });
  const email = env[CredentialEnv.email];
  const key = env[CredentialEnv.key];
  if ((email ?? '') !== '' || (key ?? '') !== '') {
    if (!email || !key) {
      throw new ZonewallError('ERR_AUTH', `${CredentialEnv.email} and ${CredentialEnv.key} go together: set both or neither`);
    }
    out.push({ type: 'key', email: checkEmail(email, CredentialEnv.email), key: checkSecret(key, CredentialEnv.key), zones: '*' });
  }
  return out;
}

/**
 * The credentials of the text `text` of a credentials file (`serve --credentials FILE`, named `file`;
 * the Worker's `ZONEWALL_CREDENTIALS`), `what` naming it in a syntax error. Refused besides what each
 * entry must be, each at `FILE:LINE:COLUMN` and without any secret: a key written twice in one object
 * (JSON keeps the last, silently: a `"zones"` written twice loses the first list), the same token (or
 * e-mail and key) in two entries (which zones does it get?), and an entry repeating a credential of
 * the environment (`fromEnv`), which already has every zone.
 */
export function readCredentialsText(text: string, file: string, fromEnv: readonly Credential[], what = `the credentials file ${file}`): Credential[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // The parser's message quotes the text around the error: a token. Say only where.
    throw new ZonewallError('ERR_AUTH', `${what} is not valid JSON${jsonErrorPlace(text, err)} (its content is not shown)`);
  }
  // Where each entry starts: `[i]` of a bare array, `credentials[i]` of an object.
  const depth = Array.isArray(parsed) ? 1 : 2;
  const starts: number[] = [];
  const duplicate = firstDuplicateKey(text, (path, offset) => {
    if (path.length === depth && (depth === 1 || path[0] === 'credentials') && typeof path[depth - 1] === 'number') starts[path[depth - 1] as number] = offset;
  });
  if (duplicate !== undefined) throw new ZonewallError('ERR_AUTH', duplicateKeyMessage(file, text, duplicate, 'keep one', 'credentials'));
  const list = Array.isArray(parsed) ? parsed : (parsed as { credentials?: unknown } | null)?.credentials;
  if (!Array.isArray(list)) {
    throw new ZonewallError('ERR_AUTH', `${file}: expected {"credentials": [...]} or an array of credentials`);
  }
  const credentials = list.map((entry, i) => readEntry(entry, `${file}: credentials[${i}]`));
  refuseRepeats(credentials, fromEnv, (i) => lineColumn(text, starts[i] ?? 0), file);
  return credentials;
}

/** The identity of a credential: two entries with the same one are the same credential. */
function identityOf(c: Credential): string {
  return c.type === 'token' ? `token\u0000${c.token}` : `key\u0000${c.email}\u0000${c.key}`;
}

/** Refuses the first entry of the file repeating another entry or a credential of the environment. */
function refuseRepeats(credentials: readonly Credential[], fromEnv: readonly Credential[], at: (i: number) => { line: number; column: number }, file: string): void {
  const env = new Set(fromEnv.map(identityOf));
  const seen = new Map<string, number>();
  credentials.forEach((c, i) => {
    const identity = identityOf(c);
    const { line, column } = at(i);
    const where = `${file}:${line}:${column}: credentials[${i}]`;
    if (env.has(identity)) {
      throw new ZonewallError('ERR_AUTH', c.type === 'token'
        ? `${where} repeats the token of ${CredentialEnv.token}, which already has every zone (the value is not shown): remove the entry or unset the variable`
        : `${where} repeats the key pair of ${CredentialEnv.email} and ${CredentialEnv.key}, which already has every zone (the value is not shown): remove the entry or unset the variables`);
    }
    const first = seen.get(identity);
    if (first !== undefined) {
      const what = c.type === 'token' ? 'token' : 'e-mail and key';
      throw new ZonewallError('ERR_AUTH', `${where} repeats the ${what} of credentials[${first}] (line ${at(first).line}; the value is not shown): one entry per credential; put all its zones in that entry's "zones"`);
    }
    seen.set(identity, i);
  });
}

function readEntry(entry: unknown, where: string): Credential {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ZonewallError('ERR_AUTH', `${where} must be an object`);
  const e = entry as Record<string, unknown>;
  const unknown = Object.keys(e).filter((k) => !['token', 'email', 'key', 'zones', 'description'].includes(k));
  if (unknown.length > 0) throw new ZonewallError('ERR_AUTH', `${where}: unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')} (allowed: token, email, key, zones, description)`);
  const zones = readZones(e.zones, where);
  if (e.token !== undefined) {
    if (e.email !== undefined || e.key !== undefined) throw new ZonewallError('ERR_AUTH', `${where}: give either token, or email and key, not both`);
    if (typeof e.token !== 'string') throw new ZonewallError('ERR_AUTH', `${where}.token must be a string`);
    return { type: 'token', token: checkSecret(e.token, `${where}.token`), zones };
  }
  if (typeof e.email !== 'string' || typeof e.key !== 'string') {
    throw new ZonewallError('ERR_AUTH', `${where}: needs a token, or an email and a key (strings)`);
  }
  return { type: 'key', email: checkEmail(e.email, `${where}.email`), key: checkSecret(e.key, `${where}.key`), zones };
}

function readZones(value: unknown, where: string): '*' | string[] {
  if (value === '*') return '*';
  if (Array.isArray(value) && value.length > 0 && value.every((z) => typeof z === 'string' && z !== '')) {
    return (value as string[]).map((z) => z.toLowerCase());
  }
  const what = value === undefined ? 'is required' : 'must be';
  throw new ZonewallError('ERR_AUTH', `${where}.zones ${what}: "*" (every zone) or a non-empty list of zone names or ids`);
}

function checkSecret(value: string, where: string): string {
  if (/[\s\u0000-\u001f\u007f]/.test(value) || value.length < CredentialLimits.secretMinLength) {
    throw new ZonewallError('ERR_AUTH', `${where} must be at least ${CredentialLimits.secretMinLength} characters with no whitespace (the value is not shown)`);
  }
  return value;
}

function checkEmail(value: string, where: string): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new ZonewallError('ERR_AUTH', `${where} must be an e-mail address`);
  return value;
}
