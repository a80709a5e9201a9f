/**
 * The data of policy tests: cases as loaded from a cases file (`schemas/policy-tests.schema.json`),
 * the verdict a zone gives a request (offline or live, in the same shape), and the result of each
 * case. Everything here is plain, serialisable data; evaluation and rendering live elsewhere.
 */
import type { SourceLocation } from '../manifest/index.js';
import type { TraceRequest, TraceResult } from '../providers/index.js';
import type { BurstSpec } from '../api/index.js';

/**
 * A request in plain terms, as a case gives it: exactly the body of the engine's trace operation
 * (declared once, by the providers' `trace`), so offline and live runs read the same request.
 */
export type CaseRequest = TraceRequest;

/** The firewall actions and the managed-rule actions a case may expect. */
export const ExpectedActions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log', 'bypass', 'skip'] as const;
/** One expected action. */
export type ExpectedAction = (typeof ExpectedActions)[number];

/** What must happen to a case's request; at least one member is set. */
export interface CaseExpectation {
  action?: ExpectedAction;
  /** Burst cases: the first request a rate limiting rule acted on (each member given must hold; `until` null: a throttle). */
  first?: { request?: number; action?: string; rule?: string; until?: number | null };
  /** Burst cases: how many requests got an action. */
  acted?: number;
  /** Rule names that must have matched; an empty list means that no rule may match. */
  matched?: string[];
  allowed?: boolean;
}

/** One case, ready to evaluate (defaults merged in, host defaulted to the zone). */
export interface TestCase {
  name: string;
  description?: string;
  request: CaseRequest;
  /** A burst: the request sent many times on the case's clock (`src/api`'s `BurstSpec`). */
  burst?: BurstSpec;
  expect: CaseExpectation;
  location: SourceLocation;
  /** Where each `matched` name was written (same order), for errors found against a manifest. */
  matchedLocations?: SourceLocation[];
  /** The document path of `expect.matched` (`cases[3].expect.matched`), for the same errors. */
  matchedPath?: string;
}

/** A cases file, loaded. */
export interface CaseFile {
  file: string;
  /** The `zone` the file says it is for, if it says. */
  zone?: string;
  /** Where that `zone` is written, for the error when it is not the manifest's. */
  zoneLocation?: SourceLocation;
  cases: TestCase[];
}

/** Which part of the zone gave the verdict (the trace's `decided_by`). */
export type DecidedBy = NonNullable<TraceResult['decided_by']>;

/** One rule that matched the request, named the way cases name rules. */
export interface MatchedRule {
  /** `firewall_rules.<key>`, `custom_rules.<key>`, `managed_rules.<ref>.<rule id>`, `previous_waf.<package>.<rule id>`. */
  name: string;
  /** Names a case may use for it (the name, and its ruleset or package). */
  aliases: string[];
  /** What the rule did (`score` for anomaly scoring rules). */
  action: string;
  /** A line on why it matched: its expression, or its description for managed rules. */
  detail: string;
}

/** What the zone does to one request. */
export interface Verdict {
  /** The final action, or null when the request reaches the origin without one. */
  action: string | null;
  decided_by: DecidedBy | null;
  /** The name of the rule that decided, or null. */
  rule: string | null;
  /** Every matched rule, in evaluation order (firewall rules, custom rules, managed rules, the previous WAF). */
  matched: MatchedRule[];
  /** Notes of the evaluation (a WAF skipped, the OWASP score), for the `why` line. */
  notes: string[];
}

/** The outcome of one case. */
export interface CaseResult {
  name: string;
  pass: boolean;
  expected: CaseExpectation;
  actual: { action: string | null; decided_by: DecidedBy | null; rule: string | null; matched: string[] };
  /** Why the zone acted as it did (the deciding rule and its expression). */
  why: string;
  /** The expectations that did not hold, one sentence each (empty when the case passes). */
  failures: string[];
  location: SourceLocation;
}

/** How cases were evaluated. */
export type EvaluationMode = 'offline' | 'against-zone';

/** The results of one manifest's cases. */
export interface PolicyReport {
  manifest: string;
  zone: string;
  cases_file: string;
  mode: EvaluationMode;
  results: CaseResult[];
  passed: number;
  failed: number;
  /** What the offline model had to assume and the manifest does not say; absent when nothing. */
  notes?: string[];
}
