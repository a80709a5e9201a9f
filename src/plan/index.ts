/** The planner's public surface: live-state types, and (once written) diff, order, safety and render. */
export * from './live.js';
