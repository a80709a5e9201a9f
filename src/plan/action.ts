/**
 * What a plan does to one object: the `Action` union and how each action is drawn in text output
 * (after Terraform's `plans/action.go`). Every change of a plan carries exactly one action.
 */

/** Every action, in the order the plan summary counts them. */
export const Actions = ['create', 'update', 'replace', 'delete', 'no-op'] as const;

/** What a plan does to one object. */
export type Action = (typeof Actions)[number];

/** The glyph drawn before a change in text output. */
export const ActionGlyphs = {
  create: '+',
  update: '~',
  replace: '-/+',
  delete: '-',
  'no-op': ' ',
} as const satisfies Record<Action, string>;

/** The phrase used in text output: `filter "x" will be created`. */
export const ActionPhrases = {
  create: 'will be created',
  update: 'will be updated in place',
  replace: 'must be replaced',
  delete: 'will be deleted',
  'no-op': 'is up to date',
} as const satisfies Record<Action, string>;
