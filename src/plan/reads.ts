/**
 * Which optional sections of a zone a plan needs read, from the manifest alone. As in Terraform, a
 * section the manifest leaves out is not managed: its live objects are neither planned nor reported,
 * so reading them would only spend the account's request budget (1,200 per 5 minutes). Each kind says which sections its part of the manifest needs (`PlanKind.reads`).
 */
import type { DesiredZone } from '../manifest/index.js';
import { LiveSections, PlanKinds } from './kinds.js';
import type { LiveSection } from './live.js';

/**
 * The optional sections `diffZone` looks at for this manifest, in `LiveSections` order.
 * @example await provider.readZone(zone.id, readsFor(desired))
 */
export function readsFor(desired: DesiredZone): LiveSection[] {
  const sections = new Set<LiveSection>();
  for (const kind of PlanKinds) for (const s of kind.reads?.(desired) ?? []) sections.add(s);
  return LiveSections.filter((s) => sections.has(s));
}
