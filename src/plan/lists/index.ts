/**
 * Account lists in the planner: the live shapes, the pure diff of the account manifest against the
 * live lists, its text and the account manifest written from the live lists (export).
 */
export { diffLists, ListSafetyDefaults, type ListChange, type ListCommentChange, type ListWrite, type ListsPlan, type ListsPlanOptions, type ListsSummary } from './diff.js';
export { itemBody, itemValueOf, liveItemOf, type LiveAccount, type LiveList, type LiveListItem } from './live.js';
export { renderListsPlan, renderListsSummary, ListItemsShown } from './render.js';
export { exportAccountManifest } from './export.js';
export { ListFindings } from './findings.js';
export { accountFingerprint } from './fingerprint.js';
