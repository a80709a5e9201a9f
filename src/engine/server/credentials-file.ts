/**
 * Reading `zonewall serve`'s credentials: the environment and `--credentials FILE`, read once and
 * checked by the one reader of its text (`credentials.ts`, which the Worker uses for its secret).
 * The Node-only half: the file system is here.
 */
import { readFileSync } from 'node:fs';
import { ZonewallError, fileErrorReason } from '../../errors.js';
import { serveCredentialsFromEnv, readCredentialsText, type Credential } from './credentials.js';

/** Credentials from the environment and, when given, a JSON config file. */
export function loadCredentials(env: NodeJS.ProcessEnv, configFile?: string): Credential[] {
  const out = serveCredentialsFromEnv(env);
  if (configFile === undefined) return out;
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch (err) {
    throw new ZonewallError('ERR_AUTH', `cannot read the credentials file ${configFile === '' ? '""' : configFile}: ${fileErrorReason(err)}`, { cause: err });
  }
  return [...out, ...readCredentialsText(text, configFile, out)];
}
