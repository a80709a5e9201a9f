/**
 * The error base of zonewall. Every error a user can see is a `ZonewallError` with a stable `code`
 * from the registry below; the registry says whether the code is the user's mistake or a system
 * failure, which decides the CLI's exit code. Module errors (`ManifestError`, `ExpressionError`,
 * `StorageError`, `ProviderError`, `UnsafePlanError`, ...) subclass it.
 */

/** Who is at fault for an error: drives the exit code and whether to suggest a fix or a bug report. */
export type ErrorKind = 'user' | 'system';

/**
 * Every error code, once, with who it belongs to. Modules add their codes here so that the set of
 * codes is reviewable in one place (after miniflare `src/shared/error.ts`).
 */
export const ErrorCodes = {
  // generic
  ERR_INTERNAL: 'system', // a bug: an impossible state was reached
  ERR_USAGE: 'user', // bad command-line arguments
  ERR_IO: 'system', // reading or writing a file failed
  ERR_INTERRUPTED: 'user', // the user stopped the run (Ctrl-C, SIGTERM)
  // manifest
  ERR_MANIFEST: 'user', // the manifest is invalid (one or more located reasons)
  // expressions
  ERR_EXPRESSION: 'user', // an expression does not parse or type-check
  ERR_EXPRESSION_INPUT: 'user', // a request value given to the expression evaluator does not fit its field
  // storage
  ERR_STORAGE: 'system', // a storage operation failed
  ERR_STORAGE_ARGUMENT: 'user', // a storage call with bad arguments or over a limit
  ERR_STORAGE_LIMIT: 'user', // a storage call over a documented limit (key, value, batch size, window)
  ERR_STORAGE_SQL: 'user', // a SQL statement failed or is not authorized
  ERR_STORAGE_UNSUPPORTED: 'user', // the API is not offered by this backend (SQL or PITR on 'kv')
  ERR_STORAGE_RESET: 'system', // the object was reset (failed write, abort); callers get this error
  ERR_STORAGE_LOCKED: 'user', // another process has the namespace directory open
  ERR_STATE_ACCESS: 'user', // a file or folder of the state directory this user may not read or write (another user's)
  ERR_STATE_RESTORE_PENDING: 'user', // a reader met a zone whose restore (rollback) waits for a command that writes to finish it
  ERR_STATE_WRITE: 'user', // a write to the state directory failed after its files opened (permissions changed, disk full, I/O error); it was rolled back
  ERR_STATE_DAMAGED: 'user', // a database file of the state directory is damaged or not a database (truncated, overwritten)
  // engine and providers
  ERR_API: 'user', // the service refused a request (see the service's errors)
  ERR_PROVIDER: 'system', // the provider could not reach or understand the service
  ERR_AUTH: 'user', // missing or refused credentials
  // plan and apply
  ERR_UNSAFE_PLAN: 'user', // apply refused without --force
  ERR_STALE_PLAN: 'user', // a saved plan no longer matches the zone
  ERR_APPLY: 'user', // apply stopped partway (what was applied is reported)
  ERR_LOCKED: 'user', // another apply holds the zone
  // migration
  ERR_MIGRATION: 'user', // the zone cannot migrate as asked
  // policy tests
  ERR_POLICY_TESTS: 'user', // a policy test cases file is missing or invalid, or its cases cannot run
} as const satisfies Record<string, ErrorKind>;

/** A registered error code. */
export type ErrorCode = keyof typeof ErrorCodes;

/** Base class of every zonewall error; `name` includes the code so logs are greppable. */
export class ZonewallError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = `ZonewallError [${code}]`;
  }

  /** `user` when the user can fix it (bad input), `system` otherwise. */
  get kind(): ErrorKind {
    return ErrorCodes[this.code];
  }
}

/** SQLite's codes of a database file that is damaged or is not a database at all. */
const DamagedDatabaseCodes = /^SQLITE_(CORRUPT|NOTADB)/;

/**
 * The state-directory error for `err` when a damaged database file is behind it (its cause chain
 * holds SQLite's SQLITE_CORRUPT or SQLITE_NOTADB: a truncated, overwritten or garbage file), else
 * undefined. Not a bug of zonewall: one line, saying what to do, instead of an internal error.
 */
export function damagedStateError(err: unknown): ZonewallError | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 8 && e !== null && typeof e === 'object'; depth++, e = (e as { cause?: unknown }).cause) {
    if (e instanceof ZonewallError && e.code === 'ERR_STATE_DAMAGED') return e;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DamagedDatabaseCodes.test(code)) {
      const said = e instanceof Error ? e.message : code;
      return new ZonewallError('ERR_STATE_DAMAGED', `a database file of the state directory is damaged (${said}: ${code}): restore the state directory from a backup, or move it away to start with an empty one`, { cause: err });
    }
  }
  return undefined;
}

/** Throws when a state that cannot happen happens, naming the value that proved it wrong. */
export function assertNever(value: never, what = 'value'): never {
  throw new ZonewallError('ERR_INTERNAL', `unexpected ${what}: ${JSON.stringify(value)}`);
}

/**
 * Why a file could not be read or written, in words for the failures a user can meet and fix (a
 * directory given for a file, a path through a file, no permission), instead of Node's errno text
 * (`EISDIR: illegal operation on a directory, rename '/x/plan.json.1234.tmp' -> ...`), which also
 * named temp files the user never asked for.
 */
export function fileErrorReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT': return (err as { path?: unknown }).path === '' ? 'the path is empty (an unset variable?)' : 'no such file or directory';
    case 'EISDIR': return 'it is a directory, not a file';
    case 'ENOTDIR': return 'a part of the path is a file, not a directory';
    // `mkdir -p` through a file: the file "exists" where a directory is needed.
    case 'EEXIST': return (err as { syscall?: unknown }).syscall === 'mkdir' ? 'a part of the path is a file, not a directory' : 'it already exists';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EROFS': return 'read-only file system';
    case 'ENOSPC': return 'no space left on the device';
    case 'ENAMETOOLONG': return 'the name is too long';
    case 'ELOOP': return 'too many levels of symbolic links';
    default: return err instanceof Error ? err.message : String(err);
  }
}
