/**
 * What every write of an entry point shares, whatever the operation: the query parameters it may
 * carry (any other one is refused with 10017, so a parameter the engine does not honour never saves
 * silently; `?dry_run=` is taken before, by the dispatcher, `../dry-run.ts`), the
 * `name` rule (set once, when the entry point is created; immutable after, 20212), and the commit
 * that bumps the ruleset's `version` and records the version's snapshot, or keeps everything as it
 * was when nothing changed.
 */
import type { ServedPhase } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import type { ZoneRequestContext } from '../context.js';
import { newId } from '../ids.js';
import { rulesetError } from './errors.js';
import { saveRuleset } from './store.js';
import type { StoredRule, StoredRuleset } from './types.js';

/** Refuses any query parameter not in `allowed` (10017, the parameter named). */
export function allowQuery(ctx: ZoneRequestContext, allowed: readonly string[] = []): void {
  for (const key of new Set(ctx.query.keys())) {
    if (allowed.includes(key)) continue;
    const accepted = allowed.length === 0 ? 'this operation takes no query parameters' : `accepted: ${allowed.join(', ')}`;
    throw ApiError.of('invalidQuery', `unknown query parameter ${JSON.stringify(key)} (${accepted}); nothing was changed`, { pointer: `?${key}` });
  }
}

/** The name to store: `given` on creation (default `default`), else the stored one, which `given` must equal. */
export function resolveName(given: string | undefined, existing: StoredRuleset | undefined): string {
  if (existing === undefined) return given ?? 'default';
  if (given !== undefined && given !== existing.name) {
    throw rulesetError('immutableField', `name is immutable: this entry point is named ${JSON.stringify(existing.name)}; leave name out or send it unchanged`, '/name');
  }
  return existing.name;
}

/** The next state of an entry point. */
export interface RulesetChange {
  name: string;
  description: string;
  rules: StoredRule[];
  /** Whether a rule was added, removed, changed or moved. */
  changed: boolean;
}

/** Saves `change` as the next version of the entry point of `phase` (nothing when nothing changed). */
export function commitRuleset(ctx: ZoneRequestContext, phase: ServedPhase, existing: StoredRuleset | undefined, change: RulesetChange): StoredRuleset {
  if (existing !== undefined && !change.changed && change.name === existing.name && change.description === existing.description) return existing;
  const entry: StoredRuleset = {
    id: existing?.id ?? newId(),
    name: change.name,
    description: change.description,
    version: existing === undefined ? '1' : String(Number(existing.version) + 1),
    last_updated: ctx.nowMicros,
    rules: change.rules,
  };
  saveRuleset(ctx.sql, phase, entry);
  return entry;
}
