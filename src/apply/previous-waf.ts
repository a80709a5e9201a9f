/**
 * Carries out previous-WAF writes: one PATCH per package, group or rule (the API has no batch form).
 */
import { ZonewallError } from '../errors.js';
import type { WriteExecutor } from './executor.js';

/** The previous WAF's PATCHes. */
export const previousWafExecutor: WriteExecutor = {
  ops: ['waf_package.patch', 'waf_group.patch', 'waf_rule.patch'],
  async execute(provider, zoneId, writes) {
    for (const w of writes) {
      switch (w.op) {
        case 'waf_package.patch': await provider.patchWafPackage(zoneId, w.packageId, w.body); break;
        case 'waf_group.patch': await provider.patchWafGroup(zoneId, w.packageId, w.groupId, w.mode); break;
        case 'waf_rule.patch': await provider.patchWafRule(zoneId, w.packageId, w.ruleId, w.mode); break;
        default: throw new ZonewallError('ERR_INTERNAL', `write ${w.op} is not a previous-WAF write`);
      }
    }
  },
};
