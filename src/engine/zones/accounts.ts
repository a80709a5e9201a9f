/**
 * Accounts of the engine: every zone belongs to one, and an account's lists are shared by its
 * zones. An engine always has its default account (the one account engines had before accounts:
 * zones created without an account, and every zone of an older state directory, belong to it).
 * An account's `plan` is an attribute set at creation (default enterprise, as for zones): the
 * Lists quotas follow it (docs/engine.md, "Lists").
 */
import type { AccountExtensionJson, AccountJson } from '../../api/index.js';
import type { AccountInfo, ZoneInfo } from '../types.js';

/** The default account (its id is the one engine zones have always shown as `account.id`). */
export const DefaultAccount: Readonly<AccountInfo> = Object.freeze({
  id: '0e7e0e7e0e7e0e7e0e7e0e7e0e7e0e7e',
  name: 'zonewall engine',
  plan: 'enterprise',
  created_on: '2020-01-01T00:00:00Z',
});

/** The id of the account `zone` belongs to. */
export function accountIdOf(zone: ZoneInfo): string {
  return zone.account_id ?? DefaultAccount.id;
}

/** Account names: 1 to 100 characters, no control characters, not only spaces. */
export function normalizeAccountName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 100 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new TypeError(`an account name must be 1 to 100 printable characters, got ${JSON.stringify(name)}`);
  }
  return trimmed;
}

/** The v4 shape of an account, plus zonewall's `plan_tier`. */
export function accountToJson(a: AccountInfo): AccountJson & AccountExtensionJson {
  return {
    id: a.id,
    name: a.name,
    type: a.plan === 'enterprise' ? 'enterprise' : 'standard',
    created_on: a.created_on,
    settings: { enforce_twofactor: false },
    plan_tier: a.plan,
  };
}
