/** Exit codes of the CLI, shared by every command (Terraform's `-detailed-exitcode` convention). */
export const ExitCodes = {
  ok: 0,
  error: 1,
  changes: 2,
  /** Stopped by SIGINT (Ctrl-C): 128 + 2, as shells report it. */
  interrupted: 130,
  /** Stopped by SIGTERM: 128 + 15. */
  terminated: 143,
} as const;
