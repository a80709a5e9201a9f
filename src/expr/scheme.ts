/**
 * The field catalog (Cloudflare's scheme, reference §2): every field with its type and the phases
 * where it exists, plus the phase list and the name lookup the parser uses. Fields and functions
 * share one namespace (wirefilter `Identifier::Field | Function`); functions are in
 * `functions/catalog.ts`. The table is data, built once at module load.
 */
import { T, arrayOf, mapOf, type Type } from './types.js';

/** The ruleset phases (entry points) whose expressions zonewall checks. */
export const PHASES = [
  'http_request_firewall_custom',
  'http_request_firewall_managed',
  'http_ratelimit',
  'http_request_sbfm',
  'http_request_transform',
  'http_request_late_transform',
  'http_request_origin',
  'http_request_redirect',
  'http_request_dynamic_redirect',
  'http_request_cache_settings',
  'http_config_settings',
  'http_request_sanitize',
  'http_custom_errors',
  'http_response_headers_transform',
  'http_response_compression',
  'http_response_firewall_managed',
  'http_log_custom_fields',
] as const;

/** A ruleset phase. Firewall filter expressions use `http_request_firewall_custom` (the default). */
export type Phase = (typeof PHASES)[number];

/** The phase used when none is given: firewall filter expressions (filters API, custom rules). */
export const DEFAULT_PHASE: Phase = 'http_request_firewall_custom';

/** Phase groups used by the catalogs. `null` means every phase. */
export const PhaseGroups = {
  all: null,
  response: [
    'http_custom_errors',
    'http_response_headers_transform',
    'http_response_compression',
    'http_response_firewall_managed',
    'http_log_custom_fields',
  ],
  transform: ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform'],
  rewrite: [
    'http_request_transform',
    'http_request_late_transform',
    'http_request_dynamic_redirect',
    'http_response_headers_transform',
  ],
  firewall: ['http_request_firewall_custom', 'http_ratelimit'],
} as const satisfies Record<string, readonly Phase[] | null>;

/** A field of the catalog. */
export interface FieldDef {
  readonly name: string;
  readonly type: Type;
  /** Phases where the field exists; null = all phases. */
  readonly phases: readonly Phase[] | null;
  /** The current name, when this name is a deprecated alias (still accepted). */
  readonly aliasOf?: string;
}

type Group = keyof typeof PhaseGroups;
const S = T.Bytes;
const AS = arrayOf(T.Bytes);
const MAS = mapOf(arrayOf(T.Bytes));
const TLS = 'cf.tls_client_auth.';

// [type, phase group, names...]; names are exact and case-sensitive.
const TABLE: ReadonlyArray<readonly [Type, Group, ...string[]]> = [
  [S, 'all', 'http.host', 'http.request.method', 'http.request.uri', 'http.request.uri.path',
    'http.request.uri.path.extension', 'http.request.uri.query', 'http.request.full_uri',
    'http.request.version', 'http.user_agent', 'http.referer', 'http.cookie', 'http.x_forwarded_for',
    'ip.src.country', 'ip.src.continent', 'ip.src.subdivision_1_iso_code', 'ip.src.subdivision_2_iso_code',
    'ip.src.city', 'ip.src.lat', 'ip.src.lon', 'ip.src.postal_code', 'ip.src.metro_code', 'ip.src.region',
    'ip.src.region_code', 'cf.bot_management.ja3_hash', 'cf.bot_management.ja4', 'cf.verified_bot_category',
    'cf.waf.score.class', 'cf.ray_id', 'cf.hostname.metadata', 'cf.worker.upstream_zone', 'cf.tls_version',
    'cf.tls_cipher', 'raw.http.request.full_uri', 'raw.http.request.uri', 'raw.http.request.uri.path',
    'raw.http.request.uri.path.extension', 'raw.http.request.uri.query', 'cf.tls_client_extensions_sha1',
    'cf.tls_client_extensions_sha1_le', 'cf.tls_ciphers_sha1', 'cf.tls_client_random',
    'http.request.body.raw', 'http.request.body.mime',
    ...['cert_issuer_dn', 'cert_subject_dn', 'cert_issuer_dn_rfc2253', 'cert_subject_dn_rfc2253',
      'cert_issuer_dn_legacy', 'cert_subject_dn_legacy', 'cert_serial', 'cert_issuer_serial',
      'cert_fingerprint_sha256', 'cert_fingerprint_sha1', 'cert_not_before', 'cert_not_after', 'cert_ski',
      'cert_issuer_ski', 'cert_rfc9440', 'cert_chain_rfc9440'].map((n) => TLS + n)],
  [S, 'transform', 'ip.src.timezone.name', 'cf.random_seed'],
  [S, 'response', 'http.response.content_type.media_type', 'cf.response.error_type'],
  [T.Int, 'all', 'http.request.timestamp.sec', 'http.request.timestamp.msec', 'ip.src.asnum',
    'cf.threat_score', 'cf.bot_management.score', 'cf.edge.server_port', 'cf.waf.score', 'cf.waf.score.sqli',
    'cf.waf.score.xss', 'cf.waf.score.rce', 'cf.tls_client_hello_length', 'cf.edge.l4.delivery_rate',
    'cf.timings.client_tcp_rtt_msec', 'cf.timings.client_quic_rtt_msec', 'cf.timings.edge_msec',
    'cf.waf.content_scan.num_malicious_obj', 'cf.waf.content_scan.num_obj', 'cf.llm.prompt.injection_score',
    'cf.llm.prompt.token_count', 'http.request.body.size'],
  [T.Int, 'response', 'http.response.code', 'cf.response.1xxx_code', 'cf.timings.origin_ttfb_msec',
    'cf.timings.worker_msec'],
  [T.Ip, 'all', 'ip.src', 'cf.edge.server_ip'],
  [T.Bool, 'all', 'ssl', 'ip.src.is_in_european_union', 'cf.client.bot', 'cf.bot_management.verified_bot',
    'cf.bot_management.static_resource', 'cf.bot_management.js_detection.passed',
    'cf.bot_management.corporate_proxy', 'cf.bot_management.signed_agent', 'http.request.headers.truncated',
    'cf.api_gateway.auth_id_present', 'cf.api_gateway.request_violates_schema',
    'cf.api_gateway.fallthrough_detected', 'cf.schema_validation.learned.violated',
    'cf.schema_validation.uploaded.violated', 'cf.edge.client_tcp', 'cf.waf.content_scan.has_obj',
    'cf.waf.content_scan.has_malicious_obj', 'cf.waf.content_scan.has_failed', 'cf.waf.auth_detected',
    'cf.waf.credential_check.password_leaked', 'cf.waf.credential_check.username_leaked',
    'cf.waf.credential_check.username_and_password_leaked',
    'cf.waf.credential_check.username_password_similar', 'cf.llm.prompt.detected',
    'cf.llm.prompt.pii_detected', 'cf.llm.prompt.unsafe_topic_detected', 'http.request.body.truncated',
    ...['cert_revoked', 'cert_verified', 'cert_presented', 'cert_rfc9440_too_large',
      'cert_chain_rfc9440_too_large'].map((n) => TLS + n)],
  [T.Bool, 'response', 'http.response.headers.truncated'],
  [AS, 'all', 'http.request.headers.names', 'http.request.headers.values', 'http.request.uri.args.names',
    'http.request.uri.args.values', 'raw.http.request.uri.args.names', 'raw.http.request.uri.args.values',
    'cf.waf.content_scan.obj_types', 'cf.waf.content_scan.obj_results', 'cf.llm.prompt.pii_categories',
    'cf.llm.prompt.unsafe_topic_categories', 'http.request.body.form.names', 'http.request.body.form.values',
    'http.request.body.multipart.values',
    ...['aud', 'iss', 'jti', 'sub'].flatMap((c) => [`http.request.jwt.claims.${c}.names`,
      `http.request.jwt.claims.${c}.values`])],
  [AS, 'transform', 'http.request.accepted_languages'],
  [AS, 'response', 'http.response.headers.names', 'http.response.headers.values',
    'raw.http.response.headers.names', 'raw.http.response.headers.values'],
  [arrayOf(T.Int), 'all', 'cf.bot_management.detection_ids', 'cf.waf.content_scan.obj_sizes',
    'http.request.jwt.claims.iat.sec.values', 'http.request.jwt.claims.nbf.sec.values'],
  [arrayOf(AS), 'all', 'http.request.body.multipart.names', 'http.request.body.multipart.content_types',
    'http.request.body.multipart.content_dispositions',
    'http.request.body.multipart.content_transfer_encodings', 'http.request.body.multipart.filenames'],
  [MAS, 'all', 'http.request.cookies', 'http.request.headers', 'http.request.uri.args',
    'raw.http.request.uri.args', 'http.request.body.form', 'http.request.body.multipart',
    ...['aud', 'iss', 'jti', 'sub'].map((c) => `http.request.jwt.claims.${c}`)],
  [MAS, 'response', 'http.response.headers', 'raw.http.response.headers'],
  [mapOf(arrayOf(T.Int)), 'all', 'http.request.jwt.claims.iat.sec', 'http.request.jwt.claims.nbf.sec'],
  [mapOf(T.Int), 'all', 'cf.llm.prompt.custom_topic_categories'],
];

// Deprecated `ip.geoip.*` names, still accepted by the service (CFY descriptions).
const ALIASES: Readonly<Record<string, string>> = {
  'ip.geoip.country': 'ip.src.country',
  'ip.geoip.continent': 'ip.src.continent',
  'ip.geoip.asnum': 'ip.src.asnum',
  'ip.geoip.subdivision_1_iso_code': 'ip.src.subdivision_1_iso_code',
  'ip.geoip.subdivision_2_iso_code': 'ip.src.subdivision_2_iso_code',
  'ip.geoip.is_in_european_union': 'ip.src.is_in_european_union',
};

function buildFields(): ReadonlyMap<string, FieldDef> {
  const out = new Map<string, FieldDef>();
  for (const [type, group, ...names] of TABLE) {
    for (const name of names) {
      if (out.has(name)) throw new Error(`field ${name} declared twice`);
      out.set(name, Object.freeze({ name, type, phases: PhaseGroups[group] }));
    }
  }
  for (const [alias, target] of Object.entries(ALIASES)) {
    const def = out.get(target)!;
    out.set(alias, Object.freeze({ ...def, name: alias, aliasOf: target }));
  }
  return out;
}

/** Every field of the catalog by name (deprecated aliases included, marked with `aliasOf`). */
export const FIELDS: ReadonlyMap<string, FieldDef> = buildFields();

/** The type of a field, or undefined when the name is not a field. */
export function fieldType(name: string): Type | undefined {
  return FIELDS.get(name)?.type;
}

/** The field definition, or undefined. */
export function getField(name: string): FieldDef | undefined {
  return FIELDS.get(name);
}

/** All field names, sorted (aliases included). */
export function fieldNames(): string[] {
  return [...FIELDS.keys()].sort();
}

/** Whether a catalog entry with the given phase list exists in `phase`. */
export function inPhase(phases: readonly Phase[] | null, phase: Phase): boolean {
  return phases === null || phases.includes(phase);
}
