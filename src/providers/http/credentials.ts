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
  if (token) return { type: 'token', token };
  const email = env[ProviderEnv.email]?.trim();
  const key = env[ProviderEnv.key]?.trim();
  if (email && key) return { type: 'key', email, key };
  if (email || key) {
    const missing = email ? ProviderEnv.key : ProviderEnv.email;
    throw new ZonewallError('ERR_AUTH', `${missing} is not set: the key pair needs both ${ProviderEnv.email} and ${ProviderEnv.key} (or set ${ProviderEnv.token})`);
  }
  throw new ZonewallError('ERR_AUTH', `no credentials for the remote API: set ${ProviderEnv.token} (or ${ProviderEnv.email} and ${ProviderEnv.key}) in the environment`);
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
