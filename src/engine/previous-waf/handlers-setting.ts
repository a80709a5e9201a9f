/**
 * The zone setting `waf` (`GET`/`PATCH /zones/{zone_id}/settings/waf`, body `{"value": "on"|"off"}`
 * like the real zone settings API): the previous WAF's global on/off switch. `editable` is false
 * where the previous WAF does not exist (Free zones, migrated zones); the GET then shows `off`, and
 * a PATCH is refused like every previous WAF API.
 */
import { BodyReader, Problems, requireObject } from '../body-reader.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import { loadWafState, saveWafState } from '../migration/store.js';
import type { ApiResponse } from '../types.js';
import { requirePreviousWaf } from './guard.js';
import { wafSettingView } from './views.js';

const PATH = '/zones/:zone_id/settings/waf';

/** Routes of the zone setting `waf`. */
export const settingRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: PATH, handler: getSetting },
  { method: 'PATCH', pattern: PATH, handler: patchSetting },
];

function getSetting(ctx: ZoneRequestContext): ApiResponse {
  const s = loadWafState(ctx.sql);
  const exists = s.state !== 'new_only' && ctx.zone.plan !== 'free';
  return ok(wafSettingView(exists ? s.previousWaf : 'off', exists, s.settingModifiedOn));
}

function patchSetting(ctx: ZoneRequestContext): ApiResponse {
  const state = requirePreviousWaf(ctx);
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'a setting value'), '', problems);
  r.allowOnly(['value']);
  const value = r.oneOf('value', ['on', 'off'] as const, { required: true });
  problems.throwIfAny();
  const next = value === state.previousWaf ? state : { ...state, previousWaf: value!, settingModifiedOn: ctx.now };
  if (next !== state) saveWafState(ctx.sql, next);
  return ok(wafSettingView(next.previousWaf, true, next.settingModifiedOn));
}
