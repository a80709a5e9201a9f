/**
 * Every `$name` of every zone manifest of a run against the lists the run can see: the account
 * manifest's, else the live account's (when a provider is given), plus the service's managed lists
 * (`$cf.open_proxies`, ...; enterprise only). An unknown list is an error with a "did you mean",
 * never an empty match; a list of the wrong kind for the field (`ip.src in $hosts`, a hostname
 * list) is an error too.
 */
import { ListFieldTypes, ManagedListNames, type ListKind } from '../../api/index.js';
import type { DesiredZone } from '../desired.js';
import type { DesiredAccount } from './desired.js';
import type { ManifestIssue } from '../errors.js';
import { closest } from '../suggest.js';

/** The lists a run can see, by name, and where they come from (for messages). */
export interface VisibleLists {
  kinds: ReadonlyMap<string, ListKind>;
  /** `the account manifest accounts/acme.yaml`, `the live account`. */
  source: string;
  /** False when the account is not on enterprise: managed lists are then unknown. */
  managed?: boolean;
}

const fieldWords: Record<string, string> = { Ip: 'an IP field', Bytes: 'a string field', Int: 'an integer field' };

/** The issues of `zones`' list uses against `visible`. */
export function checkListReferences(zones: readonly DesiredZone[], visible: VisibleLists): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const managed = visible.managed !== false;
  for (const zone of zones) {
    for (const ref of zone.listReferences ?? []) {
      const { name, lhs, type } = ref.use;
      const isManaged = (ManagedListNames as readonly string[]).includes(name);
      const kind: ListKind | undefined = isManaged && managed ? 'ip' : visible.kinds.get(name);
      if (kind === undefined) {
        const hint = closest(name, [...visible.kinds.keys(), ...(managed ? ManagedListNames : [])]);
        const why = isManaged
          ? 'managed lists need the enterprise plan'
          : visible.kinds.size === 0 ? `${visible.kinds === noLists.kinds ? visible.source : `${visible.source}, which`} defines ${visible.kinds === noLists.kinds ? 'it' : 'no lists'}` : `${visible.source} has no list of that name`;
        issues.push({ ...ref.at, message: `unknown list $${name}: ${why}${hint === undefined ? '' : `; did you mean $${hint}?`}` });
        continue;
      }
      if (kind === 'redirect' || ListFieldTypes[kind] !== type) {
        const fits = kind === 'redirect' ? 'redirect lists are for bulk redirects, not expressions'
          : `${article(kind)} ${kind} list goes with ${kind === 'ip' ? 'an IP field such as ip.src' : kind === 'hostname' ? 'http.host' : 'ip.src.asnum'}`;
        issues.push({ ...ref.at, message: `$${name} is ${article(kind)} ${kind} list, but ${lhs} is ${fieldWords[type] ?? `a ${type} field`}: ${fits}` });
      }
    }
  }
  return issues;
}

/** The lists of an account manifest. */
export function accountLists(account: DesiredAccount): VisibleLists {
  return {
    kinds: new Map(account.lists.map((l) => [l.name, l.kind])),
    source: `the account manifest ${account.file}`,
    managed: account.plan === undefined || account.plan === 'enterprise',
  };
}

/** What a run without an account manifest and without a provider can see: no custom list. */
export const noLists: VisibleLists = {
  kinds: new Map(),
  source: 'no account manifest of this run (a file with `account:` beside the zone manifests) and no live account',
};

/** `an ip list`, `an asn list`, `a hostname list`. */
function article(kind: string): string {
  return kind === 'ip' || kind === 'asn' ? 'an' : 'a';
}
