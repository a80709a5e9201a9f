/**
 * The writes of Page Rules: one POST, PUT or DELETE per Page Rule (the API has no batch form).
 */
import type { PageRuleBody } from './live.js';

/** One Page Rule write. */
export type PageRuleWrite =
  | { op: 'page_rule.create'; body: PageRuleBody }
  | { op: 'page_rule.update'; id: string; body: PageRuleBody }
  | { op: 'page_rule.delete'; id: string };

declare module '../write.js' {
  interface WriteRegistry {
    pageRules: PageRuleWrite;
  }
}
