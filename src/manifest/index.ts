/** The manifest's public surface: the Desired types, and (once written) load, validate and normalise. */
export * from './desired.js';
