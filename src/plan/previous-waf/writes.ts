/**
 * The writes of the previous WAF: one PATCH per package, group or rule (the API can neither create
 * nor delete them).
 */

/** One previous-WAF write. */
export type PreviousWafWrite =
  | { op: 'waf_package.patch'; packageId: string; body: { sensitivity?: string; action_mode?: string } }
  | { op: 'waf_group.patch'; packageId: string; groupId: string; mode: 'on' | 'off' }
  | { op: 'waf_rule.patch'; packageId: string; ruleId: string; mode: string };

declare module '../write.js' {
  interface WriteRegistry {
    previousWaf: PreviousWafWrite;
  }
}
