/**
 * Apply phases by name. Each kind registers the phases its writes run in (`declare module` on
 * `PhaseRegistry`, as Hono's `ContextVariableMap` is extended), so this file names none of them;
 * their order is the registration list's `PhaseOrder` (`kinds.ts`).
 */

/** The apply phases, one key each; kinds add theirs. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface PhaseRegistry {}

/** One apply phase. */
export type PhaseName = keyof PhaseRegistry & string;
