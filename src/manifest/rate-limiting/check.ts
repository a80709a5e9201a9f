/**
 * Checks of `rate_limiting_rules` the JSON Schema cannot state: each rule's expression (the
 * `http_ratelimit` phase has the custom phase's fields) and counting expression (response fields
 * allowed), the characteristics (known values, header names lower case, `cf.colo.id` left to
 * zonewall, `ip.src` and `cf.unique_visitor_id` exclusive), exactly one of `requests_per_period`
 * and `score_per_period` (with its header), a response only with block, a custom list in the
 * expression or the counting expression only with `requests_to_origin: false`, and a counting
 * expression that uses custom lists (checked against the visible lists, as the rule's) or response
 * fields, not both (the managed `$cf.*` lists are not custom lists: neither restriction holds them). The service's rules (security-phases.md §1),
 * checked offline so a plan never fails on them at apply time.
 */
import { characteristicProblem as apiCharacteristicProblem, ColoCharacteristic, PlainCharacteristics, RatelimitPhase, CountingPhase } from '../../api/index.js';
import { ExpressionError, customListUses, formsOf, listUses, mixesListsAndFieldsOutside, parse, type Phase } from '../../expr/index.js';
import type { DocPath } from '../errors.js';
import { checkEntryExpression, expressionPath, recordListUses, reportExpressionError, type CheckedExpression } from '../expression-check.js';
import { entriesOf, isRecord, type Checks } from '../view.js';

const Section = 'rate_limiting_rules';

/** A rule's checked expressions. */
export interface CheckedRateLimit {
  expression: CheckedExpression;
  /** Canonical counting expression; undefined when none is set. */
  counting?: string;
}

/**
 * The error of `source` when it fails at the field `cf.colo.id` (a characteristic, not a field of
 * the phase), with a hint that says so, as the engine's refusal does; undefined otherwise. Only an
 * expression whose text names it is parsed again.
 */
function coloError(source: unknown, phase: Phase): ExpressionError | undefined {
  if (typeof source !== 'string' || !source.includes(ColoCharacteristic)) return undefined;
  try {
    parse(source, { phase });
    return undefined;
  } catch (err) {
    if (!(err instanceof ExpressionError) || !source.startsWith(ColoCharacteristic, err.offset)) return undefined;
    if (/[\w.]/.test(source.charAt(err.offset + ColoCharacteristic.length))) return undefined;
    return withColoHint(err);
  }
}

function withColoHint(err: ExpressionError): ExpressionError {
  const hint = `${ColoCharacteristic} may not appear in a rate limiting rule's expressions: it is a characteristic, which zonewall adds (counters are per data center)`;
  return new ExpressionError(err.source, err.errorKind, err.reason, { offset: err.offset, length: ColoCharacteristic.length }, hint);
}

/** Checks every rule's expressions; returns the valid ones by index. */
export function checkRateLimitExpressions(checks: Checks, data: Record<string, unknown>): (CheckedRateLimit | undefined)[] {
  const { keys, values } = entriesOf(data[Section], checks);
  const valid = new Array<CheckedRateLimit | undefined>(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const colo = coloError(values[i]!.expression, RatelimitPhase);
    const exprPath = expressionPath(Section, keys[i]!);
    if (colo !== undefined && checks.isClean(exprPath)) reportExpressionError(checks, exprPath, colo.source, colo);
    const expression = colo !== undefined ? undefined : checkEntryExpression(checks, values[i]!.expression, Section, keys[i]!);
    const rl = isRecord(values[i]!.ratelimit) ? values[i]!.ratelimit as Record<string, unknown> : {};
    const source = rl.counting_expression;
    let counting: string | undefined;
    let ok = true;
    if (typeof source === 'string' && source.trim() !== '') {
      const at: DocPath = [Section, keys[i]!, 'ratelimit', 'counting_expression'];
      try {
        const parsed = parse(source, { phase: CountingPhase });
        counting = formsOf(parsed).canonical;
        if (mixesListsAndFieldsOutside(parsed, source, RatelimitPhase)) {
          checks.report(at, 'a counting expression cannot use both response fields (http.response.*, counted on the response) and lists; count on one or the other');
          ok = false;
        }
        // Its `$name`s are checked against the visible lists as the rule expression's are.
        const lists = listUses(parsed, source);
        if (lists.length > 0) recordListUses(checks, at, source, lists);
      } catch (err) {
        if (!(err instanceof ExpressionError)) throw err;
        // At its place in the value, in one line, as a rule's own expression error.
        const colo = source.startsWith(ColoCharacteristic, err.offset) && !/[\w.]/.test(source.charAt(err.offset + ColoCharacteristic.length));
        reportExpressionError(checks, at, source, colo ? withColoHint(err) : err);
        ok = false;
      }
    }
    if (expression !== undefined && ok) valid[i] = counting === undefined ? { expression } : { expression, counting };
  }
  return valid;
}

/** Keyless characteristics a manifest may write: `cf.colo.id` is zonewall's to add. */
const WrittenPlain: readonly string[] = PlainCharacteristics.filter((c) => c !== ColoCharacteristic);

/** Why `value` is not a characteristic a manifest may write; undefined when it is one. */
function characteristicProblem(value: string): string | undefined {
  if (value === ColoCharacteristic) return `zonewall adds ${ColoCharacteristic} (the API requires it: counters are per data center); remove it`;
  return apiCharacteristicProblem(value, WrittenPlain);
}

/** Whether an expression uses a custom list (the managed `$cf.*` lists are not held to the restriction). */
function usesCustomList(expression: unknown, phase: Phase): boolean {
  if (typeof expression !== 'string') return false;
  try {
    return customListUses(parse(expression, { phase }), expression).length > 0;
  } catch {
    return false;
  }
}

/** Checks every rule's fields against each other. */
export function checkRateLimitRules(checks: Checks, data: Record<string, unknown>): void {
  const { keys, values } = entriesOf(data[Section], checks);
  for (let i = 0; i < keys.length; i++) {
    const rule = values[i]!;
    const base: DocPath = [Section, keys[i]!];
    if (!checks.isClean(base) || !isRecord(rule.ratelimit)) continue;
    const rl = rule.ratelimit as Record<string, unknown>;
    const at = (field: string): DocPath => [...base, 'ratelimit', field];
    const chars = Array.isArray(rl.characteristics) ? rl.characteristics : [];
    chars.forEach((c, j) => {
      const why = typeof c === 'string' ? characteristicProblem(c) : undefined;
      if (why !== undefined) checks.report([...at('characteristics'), j], why);
    });
    if (chars.includes('ip.src') && chars.includes('cf.unique_visitor_id')) checks.report(at('characteristics'), 'ip.src and cf.unique_visitor_id (IP with NAT support) cannot be used together; keep one');
    if ((rl.requests_per_period === undefined) === (rl.score_per_period === undefined)) {
      checks.report([...base, 'ratelimit'], 'give exactly one of requests_per_period (count requests) and score_per_period (complexity-based)');
    }
    if (rl.score_per_period !== undefined && rl.score_response_header_name === undefined) checks.report(at('score_per_period'), 'score_per_period needs score_response_header_name (the origin sends each request\'s score in it)');
    if (rl.score_per_period === undefined && rl.score_response_header_name !== undefined) checks.report(at('score_response_header_name'), 'score_response_header_name goes with score_per_period only', 'key');
    if (rule.action_parameters !== undefined && rule.action !== 'block') checks.report([...base, 'action_parameters'], `action_parameters (a response) is for block rules only (this rule's action is ${String(rule.action)})`, 'key');
    if (rl.requests_to_origin === true && (usesCustomList(rule.expression, RatelimitPhase) || usesCustomList(rl.counting_expression, CountingPhase))) {
      checks.report(at('requests_to_origin'), 'a rule whose expression or counting expression uses a custom list must count cached requests too: requests_to_origin must be false');
    }
  }
}
