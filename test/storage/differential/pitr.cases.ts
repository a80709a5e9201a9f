/** Differential cases of bookmarks (PITR), which local workerd has only in part. */
import { defineCases } from './case.js';
import { settle } from './observe.js';

const NO_PITR = "This Durable Object's storage back-end does not implement point-in-time recovery.";

export const pitrCases = defineCases('pitr', {
  'getCurrentBookmark() is strictly increasing, with or without writes': async (s) => {
    const first = await s.getCurrentBookmark();
    const second = await s.getCurrentBookmark();
    await s.put('a', 1);
    const third = await s.getCurrentBookmark();
    return { types: typeof first, increasing: first < second && second < third };
  },
  'getBookmarkForTime and onNextSessionRestoreBookmark': {
    run: async (s) => {
      const now = await s.getCurrentBookmark();
      return {
        forTime: await settle(async () => typeof (await s.getBookmarkForTime(Date.now()))),
        restore: await settle(async () => typeof (await s.onNextSessionRestoreBookmark(now))),
      };
    },
    differs: {
      reason: 'zonewall keeps a durable change log, so PITR works locally; local workerd implements none of it',
      workerd: { forTime: { error: 'Error', message: NO_PITR }, restore: { error: 'Error', message: NO_PITR } },
      zonewall: { forTime: 'string', restore: 'string' },
    },
  },
});
