/**
 * The desired state of the Page Rules kind: one entry per URL pattern.
 */
import type { SourceLocation } from '../source-location.js';

/** One Page Rule (`page_rules.<key>`): matched to a live Page Rule by its URL pattern. */
export interface DesiredPageRule {
  /** The manifest key (a label: Page Rules have no ref). */
  key: string;
  /** The URL pattern of the `url` target (operator `matches`). */
  url: string;
  /** The `disable_security` action. */
  disableSecurity: boolean;
  /** The `waf` action, when set. */
  waf?: 'on' | 'off';
  status: 'active' | 'disabled';
  priority: number;
  location: SourceLocation;
}

declare module '../desired.js' {
  interface DesiredZone {
    /** undefined when the manifest has no `page_rules` section: the zone's Page Rules are left alone. */
    pageRules?: DesiredPageRule[];
  }
}
