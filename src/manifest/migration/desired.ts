/**
 * The desired state of the WAF migration kind: the mode the manifest asks for.
 */

/** The WAF migration mode the manifest asks for. */
export type DesiredWafMigration = 'none' | 'validation' | 'pending';

declare module '../desired.js' {
  interface DesiredZone {
    /** undefined when the manifest has no `waf_migration`. */
    wafMigration?: DesiredWafMigration;
  }
}

