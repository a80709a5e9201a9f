/** Exit codes of the CLI, shared by every command (Terraform's `-detailed-exitcode` convention). */
export const ExitCodes = {
  ok: 0,
  error: 1,
  changes: 2,
} as const;
