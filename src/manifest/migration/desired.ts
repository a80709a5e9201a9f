/**
 * The desired state of the WAF migration kind: the mode the manifest asks for.
 */

/** The WAF migration mode the manifest asks for. */
export type DesiredWafMigration = 'none' | 'validation' | 'pending';
