/**
 * The desired state of an account's lists (the account manifest), and the `$name` uses of a zone's
 * expressions, which are checked against the lists a run can see once every manifest is loaded.
 */
import type { ListItemValue, ListKind } from '../../api/index.js';
import type { ListUse } from '../../expr/index.js';
import type { ManifestIssue } from '../errors.js';
import type { DesiredPlanTier, SourceLocation } from '../desired.js';

/** One item of a desired list: its normal form (`normalizeListItem`) and its comment. */
export interface DesiredListItem {
  value: ListItemValue;
  comment?: string;
  /**
   * A `*.` hostname item that matches the bare domain too (`exclude_exact_hostname: false`);
   * absent for the service's default (`true`: subdomains only) and for every other item.
   */
  excludeExact?: false;
}

/** One custom list of the account. */
export interface DesiredList {
  name: string;
  kind: Exclude<ListKind, 'redirect'>;
  description: string;
  /** In the manifest's order; no two equal after normalisation. */
  items: DesiredListItem[];
  location: SourceLocation;
}

/** An account manifest, normalised. */
export interface DesiredAccount {
  file: string;
  /** The account's name or id. */
  account: string;
  plan?: DesiredPlanTier;
  /** By name, in the manifest's order. */
  lists: DesiredList[];
  locations: Record<string, SourceLocation>;
}

/** One `$name` of a zone manifest's expression, placed in its file. */
export interface ListReference {
  use: ListUse;
  /** The entry that holds the expression (`custom_rules.block-office`), named when a deleted list is still used. */
  rule: string;
  /** Where the `$name` is (an issue without a message). */
  at: ManifestIssue;
}

declare module '../desired.js' {
  interface DesiredZone {
    /** The `$name`s of its expressions, in the order met; absent when there is none. */
    listReferences?: ListReference[];
  }
}
