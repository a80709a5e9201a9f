/**
 * The previous WAF's `CloudFlare` package (`1e334934fd7ae32ad705667f8c1057aa`, traditional detection):
 * its groups and a realistic subset of its rules. Real: the package id and name, the group names, the
 * `Cloudflare Php` group id, and the legacy rule ids that the Cloudflare Managed Ruleset lists as the
 * rules it replaces (reference §4-§5). Other group ids are zonewall-assigned (md5 of a name).
 *
 * Each deny rule names the managed ruleset rule that replaces it (`new_rule_id`), which is how the
 * migration config turns a rule's mode into a rule override; each group names the managed ruleset
 * category that replaces it, which is how a group turned off becomes a category override. Rules take
 * their trace expression from their replacement unless they have their own.
 */
import { PreviousWafPackageIds } from '../../api/index.js';
import { ManagedRulesetId } from './managed-ruleset.js';
import type { LegacyPackage, LegacyRule } from './types.js';

/** The real id of the previous WAF's CloudFlare package. */
export const CloudflarePackageId = PreviousWafPackageIds.cloudflare;

let priority = 0;
function deny(id: string, description: string, default_mode: LegacyRule['default_mode'], new_rule_id?: string, expression?: string): LegacyRule {
  priority += 1;
  const r: LegacyRule = { id, description, priority: String(priority), kind: 'deny', default_mode };
  return { ...r, ...(new_rule_id ? { new_rule_id } : {}), ...(expression ? { expression } : {}) };
}
function allow(id: string, description: string, expression: string): LegacyRule {
  priority += 1;
  return { id, description, priority: String(priority), kind: 'allow', expression };
}

const specials: LegacyRule[] = [
  deny('100514', 'Log4j Headers', 'block', '5f6744fa026a4638bda5b3d7d5e015dd'),
  deny('100515', 'Log4j Body', 'block', '0c054d4e4dd5455c9ff8f01efe5abb10'),
  deny('100515B', 'Log4j Body Obfuscation', 'block', '3536f964ccc345308b6445e8dc29b753'),
  deny('100516', 'Log4j URL', 'block', 'e7e4b386797e417c998d872956c390a1'),
  deny('100625', 'Jenkins - Information Disclosure - CVE:CVE-2024-23897', 'block', 'f3c07b95144e40169abed3ee901523c0'),
  deny('100622', 'Ivanti - Auth Bypass, Command Injection - CVE:CVE-2023-46805, CVE:CVE-2024-21887', 'block', '1ec47d7bbc9740f88e10292034ab53c5'),
  deny('100532', 'Vulnerability scanner activity', 'challenge', '0242110ae62e44028a13bf4834780914'),
  deny('100532B', 'Vulnerability scanner activity 2', 'block', '6b1cc72dff9746469d4695a474430f12'),
  deny('100533', 'NoSQL - Injection', 'block', '920e3b10aa934194928a598a2753531e'),
  deny('100647', 'pgAdmin - Remote Code Execution - CVE:CVE-2024-3116', 'block', '8395a6bedf454601b0928d6885c293eb'),
  deny('100079A', 'Java - Deserialization - 2', 'block', '6ebf227e51954025919cdf17afae3d67'),
  deny('100648', 'Groovy - Remote Code Execution', 'block', '530a0370d373425e829a3d4498760cfd'),
  deny('100700', 'Apache SSRF vulnerability CVE-2021-40438', 'block', '2ce80fe815254f25b3c8f47569fe1e0d'),
  deny('100704', 'Cleo Harmony - Auth Bypass - CVE:CVE-2024-55956, CVE:CVE-2024-55953', 'block', '6e0bfbe4b9c6454c8bd7bd24f49e5840'),
  deny('100705', 'Sentry - SSRF', 'block', 'c993997b7d904a9e89448fe6a6d43bc2'),
  deny('100706', 'Apache Struts - Remote Code Execution - CVE:CVE-2024-53677', 'block', 'f40ce742be534ba19d610961ce6311bb'),
  deny('100007C_BETA', 'Command Injection - Common Attack Commands', 'disable', '870cca2b874d41738019d4c3e31d972a'),
  deny('100739', 'Next.js - Auth Bypass - CVE:CVE-2025-29927', 'disable', '34583778093748cc83ff7b38f472013e'),
  deny('100061', 'Apache Struts - Open Redirect - CVE:CVE-2013-2248', 'block', '23ee7cebe6e8443e99ecf932ab579455'),
  deny('100008E', 'SQLi - Sleep Function', 'block', '5de7edfa648c4d6891dc3e7f84534ffa'),
  deny('100005', 'DotNetNuke - File Inclusion - CVE:CVE-2018-9126, CVE:CVE-2011-1892, CVE:CVE-2022-31474', 'block', '75a0060762034a6cb663fd51a02344cb'),
  deny('100021', 'XSS - Script Tag', 'challenge', '9d5d7f4bf30c0e02240c23eecc55f971'),
  deny('100173', 'SQLi - UNION in MSSQL', 'simulate', '140659cc1bc300f333fe6a32bc60a252'),
  deny('100137', 'Shellshock - CVE:CVE-2014-6271', 'block', '4eabfbddfadc7879e2b46ead7b3b998d'),
  // Real id (reference §5: "padding attacks, off by default"); it has no replacement in the new WAF.
  deny('100048', 'Padding oracle attacks', 'disable', undefined, 'http.request.uri.query contains "WebResource.axd?d="'),
];

const wordpress: LegacyRule[] = [
  deny('WP0001', 'WordPress - XSS - Comment Field', 'block', '980d7e2b83ed20901de42bc07e216b47'),
  deny('WP0025B', 'WordPress - SQLi - Plugin Parameters', 'block', 'cf91d1c5ddbb2847bd746538280bb05a'),
  deny('WP0030', 'WordPress - Broken Access Control - REST API User Enumeration', 'disable', 'eb2b6cce5d17f95131a270f5e7e98292'),
  allow('WP0011A', 'WordPress - Allow Jetpack XML-RPC requests', 'http.request.uri.path eq "/xmlrpc.php" and http.user_agent contains "Jetpack"'),
];

const drupal: LegacyRule[] = [
  deny('D0001', 'Drupal - SQLi - CVE:CVE-2014-3704', 'block', '22d9541045bad379ae9f196e08a48bff'),
  deny('D0003', 'Drupal - Remote Code Execution - CVE:CVE-2018-7600', 'block', '86bd23bb11f2429266c2836642d4e399'),
];

const plone: LegacyRule[] = [deny('PL0001', 'Plone - XSS', 'block', 'b5105d49a8fe620f84651093bb029d95')];

const php: LegacyRule[] = [
  deny('PHP100001', 'PHP - Code Injection - CVE:CVE-2012-1823', 'block', '06888eef8418e64ada69b88cae21ea7c'),
  deny('PHP100011', 'PHP - File Inclusion - Wrapper', 'block', 'a0812b51a981dcdc7faf4202c157d5b6'),
  deny('100026', 'PHP - Code Injection', 'challenge', 'e3a567afc347477d9702d9047e97d760'),
];

/** The previous WAF's CloudFlare package. */
export const CloudflarePackage: LegacyPackage = {
  id: CloudflarePackageId,
  alias: 'cloudflare',
  name: 'CloudFlare',
  description: null,
  detection_mode: 'traditional',
  replaced_by: ManagedRulesetId,
  groups: [
    { id: '4096833576e7a68a222fbc5993f98101', name: 'Cloudflare Specials', description: 'Cloudflare Specials contains a number of rules that have been created to deal with specific attack types.', rules: specials },
    { id: 'c956a7bf4225adc26448b0badc12f17a', name: 'Cloudflare WordPress', description: 'Rules that deal with specific vulnerabilities in WordPress.', category: 'wordpress', rules: wordpress },
    { id: '39dd06c528ec43b0e4dc0cb71c38f18c', name: 'Cloudflare Drupal', description: 'Rules that deal with specific vulnerabilities in Drupal.', category: 'drupal', rules: drupal },
    { id: '2bfbe51c10658b031e76247c1cc16d7a', name: 'Cloudflare Plone', description: 'Rules that deal with specific vulnerabilities in Plone.', category: 'plone', rules: plone },
    { id: 'c8485e461f935bead889fa0fe87dd76e', name: 'Cloudflare Php', description: 'Rules that deal with specific vulnerabilities in PHP.', category: 'php', rules: php },
  ],
};
