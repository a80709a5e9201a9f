/**
 * The rule type of the derived new WAF configuration, shared by the derivation (`config.ts`) and its
 * Page Rules part (`page-rules.ts`), which `config.ts` calls: a file of its own so that the part
 * does not import the whole.
 */
import type { RuleInput } from '../rulesets/types.js';

/** A rule of the derived configuration: the seed's shape, server fields as empty strings. */
export type ConfigRule = RuleInput & { id: ''; version: ''; ref: '' };
