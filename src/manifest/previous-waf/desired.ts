/**
 * The desired state of the previous WAF kind: package, group and rule settings by id.
 */
import type { SourceLocation } from '../source-location.js';

/** Settings of the previous WAF while the zone has not migrated. */
export interface DesiredPreviousWaf {
  /** Keyed by package id (aliases `owasp` and `cloudflare` resolved). */
  packages: Record<string, { sensitivity?: 'high' | 'medium' | 'low' | 'off'; action_mode?: 'simulate' | 'block' | 'challenge' }>;
  /** Group id to mode. */
  groups: Record<string, 'on' | 'off'>;
  /** Rule id to mode. */
  rules: Record<string, string>;
  location: SourceLocation;
  /** Where each package (by resolved id), group and rule id was written, for findings about one of them. */
  keyLocations?: { packages: Record<string, SourceLocation>; groups: Record<string, SourceLocation>; rules: Record<string, SourceLocation> };
}

declare module '../desired.js' {
  interface DesiredZone {
    /** undefined when the manifest has no `previous_waf` section. */
    previousWaf?: DesiredPreviousWaf;
  }
}
