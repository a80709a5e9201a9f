/**
 * The result types of `export`: the manifest document, which live objects it adopts under which
 * keys, what it could not export and why, and the writes that store the keys as refs.
 */
import type { ZoneManifest } from '../manifest/index.js';
import type { ResourceKind } from './change.js';
import type { KeySource } from './export-keys.js';
import type { PhaseWrite, Write } from './write.js';

/** Kinds of exported object. */
export type ExportedKind = ResourceKind;

/** One live object written in the manifest, and the key it gets. */
export interface ExportedObject {
  kind: ExportedKind;
  /** The live id. */
  id: string;
  /** The manifest key (the object's ref once adopted). */
  key: string;
  /** Where the key came from: the existing ref, the description, the id, or (inline filters) the rule's key. */
  from: KeySource | 'rule' | 'ruleset';
  /** True when the live ref differs from the key, so adopting writes it. */
  refChange: boolean;
  /** Filters: written inline under their rule. */
  inline: boolean;
  /** A simplified-flow filter: its ref cannot be written; the planner matches it through its rule. */
  locked?: boolean;
}

/** A live object the export leaves out, and why. */
export interface SkippedObject {
  kind: ResourceKind;
  id: string;
  ref?: string;
  reason: string;
}

/**
 * The writes that adopt the exported objects: each gets its key as `ref`, nothing else changes.
 * Object writes (bulk PUTs of filters and firewall rules: never of simplified-flow filters, which
 * the service refuses) and phase writes (a PUT of a whole entry point, every rule with its id, when
 * one of its rules gets a new ref); apply sends them in its phase order.
 */
export interface AdoptionWrites {
  writes: Write[];
  phaseWrites: PhaseWrite[];
}

/** What `exportManifest` returns. */
export interface ExportResult {
  /** The manifest, as plain data in the schema's shape and key order. */
  document: ZoneManifest;
  /** Every exported object with its key. */
  adopted: ExportedObject[];
  skipped: SkippedObject[];
  adoption: AdoptionWrites;
}
