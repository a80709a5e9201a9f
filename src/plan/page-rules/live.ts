/**
 * Page Rules as `GET /zones/{zone_id}/pagerules` returns them, and the body of a write: the Page
 * Rules kind's part of `LiveZone`.
 */

/** A Page Rule action of the subset zonewall manages (seed 002): `disable_security`, or `waf` on/off. */
export type PageRuleAction = { id: 'disable_security'; value?: never } | { id: 'waf'; value: 'on' | 'off' } | { id: string; value?: unknown };

/** A Page Rule as `GET /zones/{zone_id}/pagerules` returns it (no ref: matched by its URL target). */
export interface LivePageRule {
  id: string;
  targets: { target: 'url'; constraint: { operator: string; value: string } }[];
  actions: PageRuleAction[];
  priority: number;
  status: 'active' | 'disabled';
  created_on?: string;
  modified_on?: string;
}

/** The body of a Page Rule create or update. */
export interface PageRuleBody {
  targets: { target: 'url'; constraint: { operator: 'matches'; value: string } }[];
  actions: PageRuleAction[];
  priority: number;
  status: 'active' | 'disabled';
}

declare module '../live.js' {
  interface LiveZone {
    /** The zone's Page Rules; undefined when the service has no Page Rules API for the zone. */
    pageRules?: LivePageRule[];
  }
  interface LiveSectionRegistry {
    page_rules: true;
  }
}
