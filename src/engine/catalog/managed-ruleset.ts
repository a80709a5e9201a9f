/**
 * The Cloudflare Managed Ruleset (`efb7b8c949ac4650a09736fc376e9aee`) as shipped by the engine: a
 * realistic subset of its rules. Ids, legacy ids, descriptions and default actions of the first block
 * are the real ones (Cloudflare's WAF changelog, reference §4 "Small real catalog"). The second block
 * are real rule ids seen in public Terraform tests without a published description: their
 * descriptions are zonewall's. The third block has zonewall-assigned ids (md5 of a name): rules for
 * the categories the previous WAF's CloudFlare groups map to (wordpress, drupal, plone, php).
 * Categories (tags) follow the real naming style; per-rule tags are not published.
 */
import { ManagedRulesetIds } from '../../api/index.js';
import type { ManagedRule, ManagedRuleset } from './types.js';

/** The real id of the Cloudflare Managed Ruleset. */
export const ManagedRulesetId = ManagedRulesetIds.managed;

const updated = '2025-04-07T14:32:10.000000Z';

function rule(r: Omit<ManagedRule, 'version' | 'last_updated' | 'enabled'> & { enabled?: boolean; version?: string }): ManagedRule {
  return { version: '1', last_updated: updated, enabled: true, ...r };
}

const realRules: ManagedRule[] = [
  rule({ id: '5f6744fa026a4638bda5b3d7d5e015dd', legacy_id: '100514', description: 'Log4j Headers', action: 'block', categories: ['cve-2021-44228', 'java', 'log4j', 'rce'], version: '3',
    expression: 'any(http.request.headers.values[*] contains "${jndi:")' }),
  rule({ id: '3536f964ccc345308b6445e8dc29b753', legacy_id: '100515B', description: 'Log4j Body Obfuscation', action: 'block', categories: ['cve-2021-44228', 'java', 'log4j', 'rce'], version: '2',
    expression: 'http.request.body.raw matches "\\$\\{[^}]*\\$\\{"' }),
  rule({ id: 'f3c07b95144e40169abed3ee901523c0', legacy_id: '100625', description: 'Jenkins - Information Disclosure - CVE:CVE-2024-23897', action: 'block', categories: ['cve-2024-23897', 'jenkins', 'information-disclosure'],
    expression: 'http.request.uri.path contains "/cli" and http.request.uri.query contains "remoting=false"' }),
  rule({ id: '1ec47d7bbc9740f88e10292034ab53c5', legacy_id: '100622', description: 'Ivanti - Auth Bypass, Command Injection - CVE:CVE-2023-46805, CVE:CVE-2024-21887', action: 'block', categories: ['cve-2023-46805', 'cve-2024-21887', 'ivanti', 'rce'],
    expression: 'http.request.uri.path contains "/api/v1/totp/user-backup-code/.."' }),
  rule({ id: '0242110ae62e44028a13bf4834780914', legacy_id: '100532', description: 'Vulnerability scanner activity', action: 'block', categories: ['scanner'],
    expression: 'lower(http.user_agent) contains "sqlmap" or lower(http.user_agent) contains "nikto" or lower(http.user_agent) contains "nuclei"' }),
  rule({ id: '920e3b10aa934194928a598a2753531e', legacy_id: '100533', description: 'NoSQL - Injection', action: 'block', categories: ['nosql', 'sqli'],
    expression: 'http.request.uri.query contains "[$ne]" or http.request.uri.query contains "[$gt]" or http.request.uri.query contains "[$where]"' }),
  rule({ id: '8395a6bedf454601b0928d6885c293eb', legacy_id: '100647', description: 'pgAdmin - Remote Code Execution - CVE:CVE-2024-3116', action: 'block', categories: ['cve-2024-3116', 'pgadmin', 'rce'],
    expression: 'http.request.uri.path contains "/misc/validate_binary_path"' }),
  rule({ id: '6ebf227e51954025919cdf17afae3d67', legacy_id: '100079A', description: 'Java - Deserialization - 2', action: 'block', categories: ['java', 'deserialization', 'rce'],
    expression: 'http.request.body.raw contains "rO0AB"' }),
  rule({ id: '530a0370d373425e829a3d4498760cfd', legacy_id: '100648', description: 'Groovy - Remote Code Execution', action: 'block', categories: ['groovy', 'rce'],
    expression: 'http.request.body.raw contains "java.lang.Runtime"' }),
  rule({ id: '2ce80fe815254f25b3c8f47569fe1e0d', legacy_id: '100700', description: 'Apache SSRF vulnerability CVE-2021-40438', action: 'block', categories: ['apache', 'cve-2021-40438', 'ssrf'],
    expression: 'http.request.uri.query contains "unix:"' }),
  rule({ id: '6e0bfbe4b9c6454c8bd7bd24f49e5840', legacy_id: '100704', description: 'Cleo Harmony - Auth Bypass - CVE:CVE-2024-55956, CVE:CVE-2024-55953', action: 'block', categories: ['cleo', 'cve-2024-55956', 'cve-2024-55953'],
    expression: 'http.request.uri.path contains "/Synchronization"' }),
  rule({ id: 'c993997b7d904a9e89448fe6a6d43bc2', legacy_id: '100705', description: 'Sentry - SSRF', action: 'block', categories: ['sentry', 'ssrf'] }),
  rule({ id: 'f40ce742be534ba19d610961ce6311bb', legacy_id: '100706', description: 'Apache Struts - Remote Code Execution - CVE:CVE-2024-53677', action: 'block', categories: ['apache-struts', 'cve-2024-53677', 'rce'],
    expression: 'http.request.body.raw contains "top.UploadFileName"' }),
  rule({ id: '870cca2b874d41738019d4c3e31d972a', legacy_id: '100007C_BETA', description: 'Command Injection - Common Attack Commands', action: 'block', enabled: false, categories: ['beta', 'command-injection', 'rce'],
    expression: 'http.request.uri.query matches "(;|\\||`)\\s*(cat|wget|curl|id)\\b"' }),
  rule({ id: '34583778093748cc83ff7b38f472013e', legacy_id: '100739', description: 'Next.js - Auth Bypass - CVE:CVE-2025-29927', action: 'block', enabled: false, categories: ['cve-2025-29927', 'nextjs'],
    expression: 'http.request.headers["x-middleware-subrequest"][0] ne ""' }),
  rule({ id: '23ee7cebe6e8443e99ecf932ab579455', legacy_id: '100061', description: 'Apache Struts - Open Redirect - CVE:CVE-2013-2248', action: 'block', categories: ['apache-struts', 'cve-2013-2248'],
    expression: 'http.request.uri.query contains "redirect:"' }),
];

/** Real ids (public Terraform tests and configurations) whose descriptions are zonewall's. */
const realIdRules: ManagedRule[] = [
  rule({ id: '0c054d4e4dd5455c9ff8f01efe5abb10', legacy_id: '100515', description: 'Log4j Body', action: 'block', categories: ['cve-2021-44228', 'java', 'log4j', 'rce'],
    expression: 'http.request.body.raw contains "${jndi:"' }),
  rule({ id: 'e7e4b386797e417c998d872956c390a1', legacy_id: '100516', description: 'Log4j URL', action: 'block', categories: ['cve-2021-44228', 'java', 'log4j', 'rce'],
    expression: 'http.request.uri contains "${jndi:" or http.request.uri contains "$%7Bjndi:"' }),
  rule({ id: '6b1cc72dff9746469d4695a474430f12', legacy_id: '100532B', description: 'Vulnerability scanner activity 2', action: 'block', categories: ['scanner'],
    expression: 'http.request.uri.path contains "/.env" or http.request.uri.path contains "/.git/config"' }),
  rule({ id: '5de7edfa648c4d6891dc3e7f84534ffa', legacy_id: '100008E', description: 'SQLi - Sleep Function', action: 'block', categories: ['sqli'],
    expression: 'lower(http.request.uri.query) contains "sleep("' }),
  rule({ id: 'e3a567afc347477d9702d9047e97d760', legacy_id: '100026', description: 'PHP - Code Injection', action: 'block', categories: ['php', 'code-injection'],
    expression: 'http.request.uri.query contains "<?php"' }),
  rule({ id: '75a0060762034a6cb663fd51a02344cb', legacy_id: '100005', description: 'DotNetNuke - File Inclusion - CVE:CVE-2018-9126, CVE:CVE-2011-1892, CVE:CVE-2022-31474', action: 'block', categories: ['dotnetnuke', 'lfi'],
    expression: 'http.request.uri.path contains "/LinkClick.aspx" and http.request.uri.query contains "fileticket="' }),
];

/** zonewall-assigned ids: rules for the categories the previous WAF's CloudFlare groups map to. */
const assignedRules: ManagedRule[] = [
  rule({ id: '980d7e2b83ed20901de42bc07e216b47', legacy_id: 'WP0001', description: 'WordPress - XSS - Comment Field', action: 'block', categories: ['wordpress', 'xss'],
    expression: 'http.request.uri.path contains "/wp-comments-post.php" and lower(http.request.body.raw) contains "<script"' }),
  rule({ id: 'cf91d1c5ddbb2847bd746538280bb05a', legacy_id: 'WP0025B', description: 'WordPress - SQLi - Plugin Parameters', action: 'block', categories: ['wordpress', 'sqli'],
    expression: 'http.request.uri.path contains "/wp-admin/admin-ajax.php" and lower(http.request.uri.query) contains "union select"' }),
  rule({ id: 'eb2b6cce5d17f95131a270f5e7e98292', legacy_id: 'WP0030', description: 'WordPress - Broken Access Control - REST API User Enumeration', action: 'managed_challenge', enabled: false, categories: ['wordpress', 'broken-access-control'],
    expression: 'http.request.uri.path contains "/wp-json/wp/v2/users"' }),
  rule({ id: '22d9541045bad379ae9f196e08a48bff', legacy_id: 'D0001', description: 'Drupal - SQLi - CVE:CVE-2014-3704', action: 'block', categories: ['drupal', 'sqli', 'cve-2014-3704'],
    expression: 'http.request.uri.path contains "/user/login" and http.request.body.raw contains "name[0;"' }),
  rule({ id: '86bd23bb11f2429266c2836642d4e399', legacy_id: 'D0003', description: 'Drupal - Remote Code Execution - CVE:CVE-2018-7600', action: 'block', categories: ['drupal', 'rce', 'cve-2018-7600'],
    expression: 'http.request.uri.query contains "element_parents=" and http.request.uri.query contains "#markup"' }),
  rule({ id: 'b5105d49a8fe620f84651093bb029d95', legacy_id: 'PL0001', description: 'Plone - XSS', action: 'block', categories: ['plone', 'xss'],
    expression: 'http.request.uri.path contains "/@@search" and lower(http.request.uri.query) contains "<script"' }),
  rule({ id: '06888eef8418e64ada69b88cae21ea7c', legacy_id: 'PHP100001', description: 'PHP - Code Injection - CVE:CVE-2012-1823', action: 'block', categories: ['php', 'code-injection', 'cve-2012-1823'],
    expression: 'http.request.uri.query contains "-d+allow_url_include" or http.request.uri.query contains "-d allow_url_include"' }),
  rule({ id: 'a0812b51a981dcdc7faf4202c157d5b6', legacy_id: 'PHP100011', description: 'PHP - File Inclusion - Wrapper', action: 'block', categories: ['php', 'lfi'],
    expression: 'http.request.uri.query contains "php://filter" or http.request.uri.query contains "php://input"' }),
  rule({ id: '9d5d7f4bf30c0e02240c23eecc55f971', legacy_id: '100021', description: 'XSS - Script Tag', action: 'block', categories: ['xss'],
    expression: 'lower(http.request.uri.query) contains "<script" or lower(http.request.uri.query) contains "%3cscript"' }),
  rule({ id: '140659cc1bc300f333fe6a32bc60a252', legacy_id: '100173', description: 'SQLi - UNION in MSSQL', action: 'log', categories: ['sqli', 'mssql'],
    expression: 'lower(http.request.uri.query) contains "union all select"' }),
  rule({ id: '4eabfbddfadc7879e2b46ead7b3b998d', legacy_id: '100137', description: 'Shellshock - CVE:CVE-2014-6271', action: 'block', categories: ['cve-2014-6271', 'shellshock', 'rce'],
    expression: 'any(http.request.headers.values[*] contains "() {")' }),
];

/** The Cloudflare Managed Ruleset. */
export const CloudflareManagedRuleset: ManagedRuleset = {
  id: ManagedRulesetId,
  alias: 'managed',
  name: 'Cloudflare Managed Ruleset',
  description:
    'Created by the Cloudflare security team, this ruleset is designed to provide fast and effective protection for all your applications. It is frequently updated to cover new vulnerabilities and reduce false positives.',
  version: '169',
  last_updated: updated,
  minimum_plan: 'pro',
  anomaly: false,
  rules: [...realRules, ...realIdRules, ...assignedRules],
};
