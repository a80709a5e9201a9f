/**
 * The previous WAF's packages, groups, rules and URI overrides as its APIs return them: the
 * previous WAF kind's part of `LiveZone`.
 */

/** A package of the previous WAF. */
export interface LiveWafPackage {
  id: string;
  name: string;
  description?: string | null;
  detection_mode: 'anomaly' | 'traditional';
  zone_id?: string;
  status?: string;
  sensitivity?: 'high' | 'medium' | 'low' | 'off';
  action_mode?: 'simulate' | 'block' | 'challenge';
}

/** A group of the previous WAF. */
export interface LiveWafGroup {
  id: string;
  name: string;
  description?: string | null;
  mode: 'on' | 'off';
  rules_count?: number;
  modified_rules_count?: number;
  package_id: string;
  allowed_modes?: ('on' | 'off')[];
}

/** A rule of the previous WAF. */
export interface LiveWafRule {
  id: string;
  description?: string;
  priority?: string;
  group: { id: string; name: string };
  package_id: string;
  mode: string;
  allowed_modes: string[];
  default_mode?: string;
}

/** A URI-based WAF override of the previous WAF (blocks migration while it exists). */
export interface LiveWafOverride {
  id: string;
  description?: string | null;
  urls: string[];
  priority?: number;
  paused?: boolean;
}

/** The previous WAF of a zone that has not finished migrating. */
export interface LivePreviousWaf {
  packages: LiveWafPackage[];
  groups: LiveWafGroup[];
  rules: LiveWafRule[];
  overrides: LiveWafOverride[];
}

declare module '../live.js' {
  interface LiveZone {
    /** null once the zone has migrated (the previous WAF's APIs no longer answer). */
    previousWaf: LivePreviousWaf | null;
  }
  interface LiveSectionRegistry {
    previous_waf: true;
  }
}
