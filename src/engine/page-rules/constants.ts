/**
 * Words, limits and error codes of the Page Rules API, from the wire contract (`src/api/page-rules.ts`),
 * plus the engine's message helper: every validation reason is one real-style 1004 error whose
 * `source.pointer` names the field.
 */
import { PageRuleErrors, PageRuleValidationMessage } from '../../api/index.js';
import { ApiError, entryMessage } from '../api-errors.js';
import type { Problems } from '../body-reader.js';

export {
  PageRuleActionIds, PageRuleErrors, PageRuleLimits, PageRuleListQuery, PageRuleOperators, PageRuleRoutes,
  PageRuleStatuses, PageRuleTargetKinds,
  type PageRule, type PageRuleAction, type PageRuleInput, type PageRuleStatus, type PageRuleTarget,
} from '../../api/index.js';

/** Throws the collected problems as 1004 errors (`Page Rule validation failed: <reason>`), if any. */
export function throwValidation(problems: Problems): void {
  if (problems.list.length === 0) return;
  throw new ApiError(PageRuleErrors.validation.status, problems.list.map((p) => entryMessage(
    PageRuleErrors.validation,
    `${PageRuleValidationMessage}: ${p.message}`,
    p.source !== undefined ? { pointer: p.source.pointer } : {},
  )));
}
