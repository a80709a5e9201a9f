/**
 * What `plan`, `apply` and `export` do with an account's lists: read the live account (every list
 * and every item, values normalised), plan the account manifest against it with the references of
 * the run's zone manifests, and the Lists API calls apply needs over the provider. Wiring only: the
 * decisions are in `plan/lists` and `apply/lists`.
 */
import { applyListWrites, type ListsApi, type ListProgress, type PreflightPrepare } from '../../apply/index.js';
import type { ListKind } from '../../api/index.js';
import { readFileSync } from 'node:fs';
import { accountLists, checkListReferences, formatIssue, ManifestError, validateAccountManifestText, type DesiredAccount, type DesiredZone, type VisibleLists } from '../../manifest/index.js';
import { diffLists, liveItemOf, type ListsPlan, type LiveAccount, type LiveZoneInfo } from '../../plan/index.js';
import type { Provider } from '../../providers/index.js';
import type { ListsCheck } from './plan-run.js';

/** The live account of `account` (a name or id): every list with its items. */
export async function readLiveAccount(provider: Provider, account: string): Promise<LiveAccount> {
  const { id, name, tier } = await provider.resolveAccount(account);
  const lists = await provider.listLists(id);
  const out: LiveAccount = tier === undefined ? { id, name, lists: [] } : { id, name, lists: [], tier };
  for (const list of lists) {
    const items = list.kind === 'redirect' ? [] : await provider.listItems(id, list.id);
    out.lists.push({
      id: list.id, name: list.name, kind: list.kind, description: list.description ?? '',
      items: items.map((i) => liveItemOf(list.kind, i)), referencingRules: list.num_referencing_filters,
    });
  }
  return out;
}

/** The rules of the run's zone manifests that use each list, by list name (`zone shop.example.com custom_rules.x`). */
export function referencesOf(zones: readonly DesiredZone[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const zone of zones) {
    for (const ref of zone.listReferences ?? []) {
      const users = out.get(ref.use.name) ?? [];
      const label = `zone ${zone.zone} ${ref.rule}`;
      if (!users.includes(label)) users.push(label);
      out.set(ref.use.name, users);
    }
  }
  return out;
}

/**
 * The lists plan of the run's account manifest. When the service says the account's plan and it is
 * not the one the manifest was checked with (`plan:`, default enterprise), the manifest is checked
 * again with the account's: its quotas (lists, items, hostname and ASN lists) are manifest errors
 * at their place (`ManifestError`), before anything is written, not refusals half-way through apply.
 */
export async function planAccount(provider: Provider, account: DesiredAccount, zones: readonly DesiredZone[]): Promise<{ plan: ListsPlan; live: LiveAccount }> {
  const live = await readLiveAccount(provider, account.account);
  if (live.tier !== undefined && live.tier !== (account.plan ?? 'enterprise')) {
    const again = validateAccountManifestText(readFileSync(account.file, 'utf8'), account.file, { tier: live.tier });
    // The managed lists ($cf.*) are the account's on enterprise only: the zones' uses of them, checked
    // with the manifest's plan when loaded, are checked with the account's (only what is new is reported).
    const known = new Set(checkListReferences(zones, accountLists(account)).map(formatIssue));
    const refs = checkListReferences(zones, accountLists({ ...account, plan: live.tier })).filter((i) => !known.has(formatIssue(i)));
    if (again.issues.length + refs.length > 0) throw new ManifestError([...again.issues, ...refs]);
  }
  return { plan: diffLists(account, live, { references: referencesOf(zones) }), live };
}

/** The Lists API calls of `accountId` through the provider (reads normalise as `readLiveAccount`). */
export function listsApiOf(provider: Provider, account: string): ListsApi {
  let accountId: string | undefined;
  const id = async () => (accountId ??= (await provider.resolveAccount(account)).id);
  return {
    readLists: async () => readLiveAccount(provider, account),
    createList: async (body) => ({ id: (await provider.createList(await id(), body)).id }),
    updateList: async (listId, body) => { await provider.updateList(await id(), listId, body); },
    deleteList: async (listId) => provider.deleteList(await id(), listId),
    postItems: async (listId, items) => ({ operation_id: await provider.addListItems(await id(), listId, items) }),
    deleteItems: async (listId, items) => ({ operation_id: await provider.deleteListItems(await id(), listId, items.map((i) => i.id)) }),
    operation: async (operationId) => provider.getListOperation(await id(), operationId),
  };
}

/** A progress line for list writes on a terminal (stderr), or nothing. */
export function listProgress(stream: NodeJS.WriteStream): ((p: ListProgress) => void) | undefined {
  if (stream.isTTY !== true) return undefined;
  return (p) => stream.write(`\r\x1b[2K${p.op} ${p.list}${p.items !== undefined ? ` (${p.items} items)` : ''}${p.status !== undefined ? `: ${p.status}` : ''}`);
}

/**
 * Pre-flight with the run's lists: the lists plan's writes that come before the zones' rules
 * (creates, items) are written to each zone's validator first, so a rule using a list this run
 * creates is checked against it, as apply will meet it. Only on the embedded engine's scratch copy
 * (a remote API has no dry run of list writes: its validator is left as it is); a zone of another
 * account than the manifest's does not see them.
 */
export function listsPreflight(plan: ListsPlan, account: string): PreflightPrepare {
  return async (validator) => {
    if (validator.kind !== 'engine' || plan.writes.before.length === 0) return;
    try {
      await validator.resolveAccount(plan.account.id ?? account);
    } catch {
      return; // not the zone's account: the copy does not have it
    }
    await applyListWrites(listsApiOf(validator, plan.account.id ?? account), plan.writes.before, { sleep: async () => {}, pollMs: 0 });
  };
}

/**
 * The `$name` check of `plan`: against the run's account manifest when it has one (as `validate`
 * does), else against the lists of the zone's live account (read once per account, without their
 * items). A zone whose service does not say its account is left to the service (and pre-flight).
 */
export function listsCheck(provider: Provider, account?: DesiredAccount): ListsCheck {
  if (account !== undefined) {
    const visible = accountLists(account);
    return async (desired) => checkListReferences([desired], visible);
  }
  const seen = new Map<string, Promise<VisibleLists>>();
  return async (desired: DesiredZone, zone: LiveZoneInfo) => {
    if (zone.account === undefined) return [];
    const { id, name } = zone.account;
    let visible = seen.get(id);
    if (visible === undefined) {
      visible = provider.listLists(id).then((lists) => ({
        kinds: new Map<string, ListKind>(lists.map((l) => [l.name, l.kind])),
        source: `the live account ${JSON.stringify(name)} (and no account manifest in this run)`,
      }));
      seen.set(id, visible);
    }
    return checkListReferences([desired], await visible);
  };
}
