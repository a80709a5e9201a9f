/**
 * Credentials of the HTTP provider: read from the environment only (`ZONEWALL_API_TOKEN`, or
 * `ZONEWALL_AUTH_EMAIL` + `ZONEWALL_AUTH_KEY`), turned into the v4 auth headers, and scrubbed from
 * any text that could reach an error message or a log (`redact`).
 */
import { ZonewallError } from '../../errors.js';
import { ProviderEnv } from './defaults.js';

/** An API token (preferred) or an e-mail + key pair. */
export type HttpCredentials =
  | { type: 'token'; token: string }
  | { type: 'key'; email: string; key: string };

/** What replaces a secret in text. */
export const Redacted = '[REDACTED]';

/**
 * Reads credentials from the environment. A token wins over a key pair when both are set; half a
 * key pair, or nothing at all, is an `ERR_AUTH` error naming the variables to set.
 */
export function credentialsFromEnv(env: NodeJS.ProcessEnv): HttpCredentials {
  const token = env[ProviderEnv.token]?.trim();
  if (token) return { type: 'token', token: headerSafe(ProviderEnv.token, token) };
  const email = env[ProviderEnv.email]?.trim();
  const key = env[ProviderEnv.key]?.trim();
  if (email && key) return { type: 'key', email: headerSafe(ProviderEnv.email, email), key: headerSafe(ProviderEnv.key, key) };
  if (email || key) {
    const missing = email ? ProviderEnv.key : ProviderEnv.email;
    throw new ZonewallError('ERR_AUTH', `${missing} is not set: the key pair needs both ${ProviderEnv.email} and ${ProviderEnv.key} (or set ${ProviderEnv.token})`);
  }
  throw new ZonewallError('ERR_AUTH', `no credentials for the remote API: set ${ProviderEnv.token} (or ${ProviderEnv.email} and ${ProviderEnv.key}) in the environment`);
}

/**
 * `value` of the variable `name` when it can be sent in a header: a space, line break or control
 * character inside it (a token pasted with its line break) is an `ERR_AUTH` error that names the
 * variable, never its value. Sent as is, the HTTP client refuses the header on every attempt.
 */
function headerSafe(name: string, value: string): string {
  if (/[\s\u0000-\u001f\u007f]/.test(value)) {
    throw new ZonewallError('ERR_AUTH', `${name} must be printable characters without spaces or line breaks (the value is not shown): copy it again from where it was issued`);
  }
  return value;
}

/** The request headers that carry the credentials. */
export function authHeaders(credentials: HttpCredentials): Record<string, string> {
  return credentials.type === 'token'
    ? { authorization: `Bearer ${credentials.token}` }
    : { 'x-auth-email': credentials.email, 'x-auth-key': credentials.key };
}

/** The secret strings of a credential (the e-mail is not secret and stays readable). */
export function secretsOf(credentials: HttpCredentials): string[] {
  return credentials.type === 'token' ? [credentials.token] : [credentials.key];
}

/** Replaces every occurrence of each secret in `text` with `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Very short secrets would redact ordinary words; real tokens and keys are 37+ characters.
    if (secret.length >= 4) out = out.split(secret).join(Redacted);
  }
  return out;
}
