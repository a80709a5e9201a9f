/**
 * Notes of the equivalence report shared by its row builders (`report.ts`, `report-page-rules.ts`).
 */

/** Where a skip rule of the proposal (a firewall rule's or a Page Rule's) ends up after the rewrite. */
export function skipRuleNote(ownManagedRules: boolean): string {
  return ownManagedRules
    ? 'the manifest\'s own managed_rules are kept: unless they declare this skip rule as an exception, it stays on the zone as an unmanaged entry point rule, which plans keep first'
    : 'the rewritten managed_rules declare it as a managed-rules exception, ahead of the deployments, so plans manage it';
}
