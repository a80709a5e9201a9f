/**
 * Progress events of an apply, so the CLI can draw a progress line on a TTY (and tests can watch
 * the order of operations) without the executor knowing about terminals.
 */
import type { PhaseName } from '../plan/index.js';

/** Something that happened during an apply. */
export type ApplyEvent =
  | { type: 'phase-start'; zone: string; phase: PhaseName; objects: number; requests: number }
  | { type: 'batch-done'; zone: string; phase: PhaseName; done: number; objects: number }
  | { type: 'phase-done'; zone: string; phase: PhaseName }
  | { type: 'failed'; zone: string; phase: PhaseName; message: string };

/** Receives apply events. */
export type ApplyListener = (event: ApplyEvent) => void;
