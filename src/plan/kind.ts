/**
 * The one interface a kind of managed object implements in the planner (after Hono's one router
 * interface with a folder per implementation). A kind owns one manifest section or a few (firewall:
 * `filters` + `firewall_rules`), the live sections it reads, its diff, its safety and quota
 * findings, its part of the state fingerprint and of the call estimate. The core (`diff.ts`,
 * `order.ts`, `calls.ts`, `safety.ts`, `quota.ts`, `reads.ts`, `fingerprint.ts`) iterates the
 * registration list (`kinds.ts`) and names no kind. `docs/architecture.md` says how to add one.
 */
import type { DesiredZone, ZoneManifest } from '../manifest/index.js';
import type { Canonicalizer } from './canonical.js';
import type { AttributeValue, Change, ResourceKind } from './change.js';
import type { AdoptionWrites, ExportedObject, SkippedObject } from './export-types.js';
import type { Finding } from './finding.js';
import type { LiveSection, LiveZone, PlanTier } from './live.js';
import type { PhaseName } from './phase.js';
import type { UnmanagedObject } from './plan.js';
import type { PhaseWrite, Write } from './write.js';

/** What a kind's diff is given. */
export interface DiffInput {
  desired: DesiredZone;
  live: LiveZone;
  /** Canonicalises live expressions, memoised for the whole plan. */
  canon: Canonicalizer;
  /** `--prune`: delete unmanaged objects (and adopt same-expression ones). */
  prune: boolean;
  /** This run's provider flags (` --remote URL`; empty for the defaults), repeated in the commands findings suggest. */
  providerFlags: string;
}

/** What a kind's diff found. */
export interface KindDiff {
  changes: Change[];
  findings: Finding[];
  unmanaged?: UnmanagedObject[];
  /**
   * The write of a whole rules phase (an entry point PUT, or its single-rule calls), when anything
   * of it changes. A later kind's write of the same phase replaces an earlier one's (the migration
   * step PUTs the managed entry point with the body `zonewall migrate` sends).
   */
  phaseWrite?: PhaseWrite;
}

/**
 * Where the changes of one resource kind sit in apply order when they carry no write of their own
 * (no-ops, and changes carried by a phase write): the phase for kept objects and for deletions.
 */
export interface ResourcePlacement {
  kept: PhaseName;
  deleted: PhaseName;
  /** Changes keep the order the diff made (the kind's own evaluation order), not sorted by ref. */
  ordered?: boolean;
  /** Managed objects of this kind count for the delete threshold (`--delete-threshold`). */
  counted?: boolean;
  /** Its changes carry no writes of their own: the phase write of `kept` carries them. */
  carried?: boolean;
  /**
   * The service never undoes a change of it (a WAF migration step): once one may have been made,
   * an apply leaves nothing for `rollback` to restore, which would take the zone back past it.
   */
  irreversible?: boolean;
  /**
   * The order of its deletions within their phase, instead of by ref: a kind whose objects are
   * evaluated in order deletes them last-evaluated-first, so a stop between two batches leaves a
   * head of the old order in front of what replaces it (no window, issue 32).
   */
  deleteOrder?: (a: Change, b: Change) => number;
}

/** One apply phase a kind writes in. */
export interface PhaseInfo {
  name: PhaseName;
  /** Objects per request: `batch` (the plan's batch size, e.g. 100) or one request per object. */
  requests: 'batch' | 'per-object';
}

/**
 * One line of a compared attribute that renderers show item by item instead of two JSON blobs
 * (`overrides: rule 6179ae15… score_threshold: 40 -> 60`): what changed, before and after.
 */
export interface AttributeDelta {
  label: string;
  before: string;
  after: string;
}

/** What a kind's export is given. */
export interface ExportContext {
  canon: Canonicalizer;
  /** The manifest so far: the sections of the kinds before this one. */
  document: Readonly<ZoneManifest>;
}

/** A kind's part of an export: its manifest sections, the objects they adopt, and the adoption writes. */
export interface KindExport {
  /** Its sections, only those with something to write, in the schema's order. */
  sections: Partial<ZoneManifest>;
  adopted?: ExportedObject[];
  skipped?: SkippedObject[];
  adoption?: Partial<AdoptionWrites>;
}

/** Sends `line` into the state fingerprint (`fingerprint.ts`). */
export type FingerprintSink = (tag: string, value: unknown) => void;

/** One kind of managed object, as the planner sees it. */
export interface PlanKind {
  /** The kind's folder name (`firewall`, `custom-rules`, …). */
  readonly name: string;
  /** Its resource kinds (`Change.kind`) and where their write-less changes sit. */
  readonly resources: Partial<Record<ResourceKind, ResourcePlacement>>;
  /** The apply phases its writes run in; their order is the registration list's `PhaseOrder`. */
  readonly phases: readonly PhaseInfo[];
  /** The write ops it owns (`Write['op']`). */
  readonly ops: readonly Write['op'][];
  /** The phase a write of this kind runs in. */
  phaseOf(write: Write): PhaseName;
  /** Writes of one phase that may not share a request (one option per call) are batched apart: same group, same batch. */
  batchGroup?(write: Write): number;
  /** Desired expressions already in canonical form (they seed the canonicaliser). */
  canonical?(desired: DesiredZone): Iterable<string>;
  /** The optional live sections the manifest needs read (none: the section is not managed). */
  reads?(desired: DesiredZone): Iterable<LiveSection>;
  /** Requests of reading its part of a zone (`read(section)`: whether the read asked for it). */
  readRequests?(live: LiveZone, perPage: number, read: (s: LiveSection) => boolean): number;
  diff(input: DiffInput): KindDiff;
  /** Danger findings of one of its changes that is not a create or a no-op. */
  changeFindings?(change: Change): Finding[];
  /** Findings that need every change of the plan (e.g. a filter paused under a blocking rule). */
  planFindings?(changes: readonly Change[], zone: { desired: DesiredZone; live: LiveZone }): Finding[];
  /** `tier` error findings for quotas the apply would exceed once the live zone is counted. */
  quotaFindings?(tier: PlanTier, zone: { desired: DesiredZone; live: LiveZone }, changes: readonly Change[], phaseWrites: readonly PhaseWrite[]): Finding[];
  /**
   * The lines of a changed attribute that renderers show item by item (undefined: shown whole,
   * `before -> after`). A threshold change must not hide in a JSON blob.
   */
  attributeDeltas?(name: string, before: AttributeValue | undefined, after: AttributeValue | undefined): AttributeDelta[] | undefined;
  /** Its sections of a manifest written from the live zone (`zonewall export`), and their adoption. */
  export?(live: LiveZone, context: ExportContext): KindExport;
  /** Its part of the live state's fingerprint: every field the diff reads or copies into a write. */
  fingerprint?(live: LiveZone, put: FingerprintSink): void;
}

/** List pages of `n` objects at `perPage` a page: at least one request, even for an empty list. */
export function listPages(n: number, perPage: number): number {
  return Math.max(1, Math.ceil(n / perPage));
}
