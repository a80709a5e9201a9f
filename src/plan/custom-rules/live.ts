/**
 * The `http_request_firewall_custom` entry point as the Rulesets API returns it, and the body of a
 * custom rule write: the custom rules kind's part of `LiveZone`.
 */
import type { PhaseRuleBody } from '../write.js';

/** Actions of a WAF custom rule (phase `http_request_firewall_custom`; `src/api`). */
export { CustomRuleActions } from '../../api/index.js';

/** `action_parameters` of a custom rule: a block `response`, or what a skip rule skips. */
export interface CustomRuleParameters {
  response?: { status_code: number; content_type: string; content: string };
  ruleset?: 'current';
  phase?: 'current';
  phases?: string[];
  products?: string[];
}

/** A rule of the `http_request_firewall_custom` entry point, as the Rulesets API returns it. */
export interface LiveCustomRule {
  id: string;
  version?: string;
  /** The API allows other actions in other phases; the planner compares the string. */
  action: string;
  expression: string;
  description?: string;
  enabled: boolean;
  ref?: string;
  logging?: { enabled: boolean };
  action_parameters?: CustomRuleParameters;
  last_updated?: string;
}

/** The zone's `http_request_firewall_custom` entry point ruleset. */
export interface LiveCustomEntrypoint {
  id: string;
  name: string;
  description?: string;
  kind: 'zone';
  phase: 'http_request_firewall_custom';
  version: string;
  last_updated?: string;
  rules: LiveCustomRule[];
}

/** A custom rule as a write sends it: server-filled fields left out; `id` keeps a rule in a PUT. */
export interface CustomRuleBody extends PhaseRuleBody {
  action_parameters?: CustomRuleParameters;
}

declare module '../live.js' {
  interface LiveZone {
    /**
     * The `http_request_firewall_custom` entry point: null when the zone has none yet (404 10003);
     * undefined when it was not read (a provider or test fixture that predates custom rules).
     */
    customEntrypoint?: LiveCustomEntrypoint | null;
  }
  interface LiveSectionRegistry {
    custom_rules: true;
  }
}
