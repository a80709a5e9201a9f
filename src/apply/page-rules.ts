/**
 * Carries out Page Rule writes: one POST, PUT or DELETE per Page Rule (the API has no batch form).
 */
import { ZonewallError } from '../errors.js';
import type { WriteExecutor } from './executor.js';

/** Page Rules, one call each. */
export const pageRulesExecutor: WriteExecutor = {
  ops: ['page_rule.create', 'page_rule.update', 'page_rule.delete'],
  async execute(provider, zoneId, writes) {
    for (const w of writes) {
      switch (w.op) {
        case 'page_rule.create': await provider.createPageRule(zoneId, w.body); break;
        case 'page_rule.update': await provider.updatePageRule(zoneId, w.id, w.body); break;
        case 'page_rule.delete': await provider.deletePageRule(zoneId, w.id); break;
        default: throw new ZonewallError('ERR_INTERNAL', `write ${w.op} is not a Page Rule write`);
      }
    }
  },
};
