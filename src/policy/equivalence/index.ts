/**
 * The equivalence proof of a manifest rewrite (firewall rules -> custom rules): the zone's cases
 * and a corpus generated from its expressions, evaluated offline before and after.
 */
export { proveEquivalence } from './prove.js';
export type { EquivalenceInput, EquivalenceProof, ProofDifference, ProofVerdict } from './prove.js';
export { generateCorpus } from './corpus.js';
export type { CorpusRequest } from './corpus.js';
export { probesOf } from './probes.js';
export type { Probe, ProbeTarget, ProbeValue } from './probes.js';
