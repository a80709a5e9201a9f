/**
 * The Cloudflare OWASP Core Ruleset (`4814384a9e5d4991b9815dcfc25d2f1f`) as shipped by the engine:
 * a realistic subset of CRS 3.x rules over the four paranoia levels, each tagged `paranoia-level-N`
 * plus an attack tag, each adding its CRS severity score (critical 5, error 4, warning 3, notice 2)
 * to the request threat score, and the last rule, `949110: Inbound Anomaly Score Exceeded`
 * (`6179ae15870a4bb7b2d480d4843b323c`, real id, ref and version), which applies the ruleset's action
 * (default `block`) when the score reaches its threshold (default 40, Medium).
 *
 * Ids: 949110 and six more are real (reference §4: seen in a public Terraform test; which CRS rule
 * each one is, is not published, so the pairing below is zonewall's, except `...f3b37cb1`, whose
 * suffix matches a PL4 row in the real documentation). The rest are zonewall-assigned (md5 of a
 * name). Descriptions are the public CRS messages.
 *
 * Every rule is enabled by default, as the Rulesets API deploys it: a paranoia level is chosen by
 * disabling the higher `paranoia-level-N` categories with overrides (the dashboard's default PL1 is
 * such a set of overrides, not a catalog default).
 */
import { OwaspRulesetId, OwaspScoreRuleId, OwaspScoreThresholds } from '../../api/index.js';
import type { ManagedRule, ManagedRuleset, ParanoiaLevel } from './types.js';

/** The real id of the Cloudflare OWASP Core Ruleset (`src/api`'s). */
export { OwaspRulesetId };
/** The real id of `949110: Inbound Anomaly Score Exceeded`, the threshold rule. */
export const OwaspThresholdRuleId = OwaspScoreRuleId;
/** Score thresholds by name (real): Low 60, Medium 40 (default), High 25. */
export { OwaspScoreThresholds };
/** The threshold rule's allowed actions (real): block (default), managed_challenge, js_challenge, log, challenge. */
export const OwaspThresholdActions = ['block', 'managed_challenge', 'js_challenge', 'log', 'challenge'] as const;

const updated = '2024-11-18T09:12:44.000000Z';

function crs(id: string, pl: ParanoiaLevel, description: string, tag: string, score: number, expression?: string): ManagedRule {
  const r: ManagedRule = {
    id,
    version: '35',
    description,
    action: 'score',
    categories: [`paranoia-level-${pl}`, tag],
    enabled: true,
    last_updated: updated,
    paranoia_level: pl,
    score,
  };
  return expression === undefined ? r : { ...r, expression };
}

const rules: ManagedRule[] = [
  // Paranoia level 1
  crs('a6be45d4905042b9964ff81dc12e41d2', 1, '913100: Found User-Agent associated with security scanner', 'scanner', 5,
    'lower(http.user_agent) contains "sqlmap" or lower(http.user_agent) contains "nikto" or lower(http.user_agent) contains "nmap"'),
  crs('fa54f3d75ed446e78c22b4ea57b90acf', 1, '920350: Host header is a numeric IP address', 'protocol', 3,
    'http.host matches "^[0-9.]+(:[0-9]+)?$"'),
  crs('e5a6cb623c28df07e2fcd0824c8fd7fc', 1, '930100: Path Traversal Attack (/../)', 'lfi', 5,
    'http.request.uri contains "../" or lower(http.request.uri) contains "%2e%2e%2f"'),
  crs('272ce3e6806fbd76f686ea020af4820a', 1, '930120: OS File Access Attempt', 'lfi', 5,
    'http.request.uri contains "/etc/passwd" or http.request.uri contains "/etc/shadow"'),
  crs('f86f8c1f1974689d911aad716489b36e', 1, '931100: Possible Remote File Inclusion (RFI) Attack: URL Parameter using IP Address', 'rfi', 5,
    'http.request.uri.query matches "=(https?|ftp)://[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+"'),
  crs('942c9cf48e436fb0e9478c41fafc1036', 1, '932100: Remote Command Execution: Unix Command Injection', 'rce', 5,
    'http.request.uri.query matches ";\\s*(cat|ls|id|uname|wget|curl)\\b"'),
  crs('e5bba3a4a6af4b0e1a518b069ddb8afb', 1, '932160: Remote Command Execution: Unix Shell Code Found', 'rce', 5,
    'http.request.uri contains "/bin/sh" or http.request.uri contains "/bin/bash"'),
  crs('9b8358976712f0d83623b88e0523c85e', 1, '933100: PHP Injection Attack: PHP Open Tag Found', 'php', 5,
    'http.request.uri.query contains "<?php" or lower(http.request.uri.query) contains "%3c%3fphp"'),
  crs('caeef9d6b76bb7f25744735bc1286bc2', 1, '941100: XSS Attack Detected via libinjection', 'xss', 5,
    'lower(http.request.uri.query) contains "<script" or lower(http.request.uri.query) contains "%3cscript"'),
  crs('4b723b817f43488aac995f71f41d534c', 1, '941110: XSS Filter - Category 1: Script Tag Vector', 'xss', 5,
    'http.request.uri.query matches "(?i)<script[^>]*>"'),
  crs('ec42fac3279943388b6be5ee9182835e', 1, '942100: SQL Injection Attack Detected via libinjection', 'sqli', 5,
    'http.request.uri.query matches "(?i)union(\\s|\\+|%20)+select"'),
  crs('9f2fdadf6d6b33ccbec5ddaef3315eb3', 1, '944100: Remote Command Execution: Suspicious Java class detected', 'java', 5,
    'http.request.uri contains "java.lang.Runtime" or http.request.uri contains "java.lang.ProcessBuilder"'),
  // Paranoia level 2
  crs('5d3b980a1f1025ce2a3f409452574c78', 2, '920320: Missing User Agent Header', 'protocol', 2,
    'http.user_agent eq ""'),
  crs('ee80a0656f733f849131657d2beda142', 2, '920300: Request Missing an Accept Header', 'protocol', 2),
  crs('37da7855d2f94f69865365d894a556a4', 2, '932200: RCE Bypass Technique', 'rce', 5,
    'http.request.uri.query contains "$(" or http.request.uri.query contains "${IFS}"'),
  crs('0f38b4f048015f718f1ac9c79f4fd329', 2, '942430: Restricted SQL Character Anomaly Detection (args): # of special characters exceeded (12)', 'sqli', 3,
    'http.request.uri.query matches "([\'\\";()][^\'\\";()]*){12}"'),
  crs('1e6dd235dfc196eb280be905b408c506', 2, '941320: Possible XSS Attack Detected - HTML Tag Handler', 'xss', 5,
    'lower(http.request.uri.query) contains "<img" or lower(http.request.uri.query) contains "<svg"'),
  crs('0c53ad803ddf72afabe09ea075005e04', 2, '942200: Detects MySQL comment-/space-obfuscated injections and backtick termination', 'sqli', 5,
    'http.request.uri.query contains "/**/"'),
  crs('d246f19e79c07064683e32084d62b6e0', 2, '921151: HTTP Header Injection Attack via payload (CR/LF detected)', 'protocol', 5,
    'lower(http.request.uri.query) contains "%0d%0a"'),
  crs('7b65ab8f0f369a33e4781888fd48cc93', 2, '941380: AngularJS client side template injection detected', 'xss', 5,
    'http.request.uri.query contains "{{" and http.request.uri.query contains "constructor"'),
  // Paranoia level 3
  crs('4c0a67320e9fd0520d44de330b1aefa9', 3, '920272: Invalid character in request (outside of printable chars below ascii 127)', 'protocol', 5),
  crs('f2db062052cf453fbe9e93f058ecf7e7', 3, '942490: Detects classic SQL injection probings 3/3', 'sqli', 3,
    'http.request.uri.query contains "\'"'),
  crs('b4b1c5a3ceaef3dd599fe89e951c3c27', 3, '932190: Remote Command Execution: Wildcard bypass technique attempt', 'rce', 3,
    'http.request.uri.query matches "/[a-z]*\\?[a-z?]*/"'),
  // Paranoia level 4
  crs('f4b14a2a2a43bc1928d5d77bcb7d102e', 4, '920202: Range: Too many fields for pdf request (63 or more)', 'protocol', 5),
  crs('ae2a194cddde8c3693bb06c2d04a25e0', 4, '942421: Restricted SQL Character Anomaly Detection (cookies): # of special characters exceeded (3)', 'sqli', 3,
    'http.cookie matches "([\'\\";()][^\'\\";()]*){3}"'),
  crs('1129dfb383bb42e48466488cf3b37cb1', 4, '920460: Abnormal character escapes in request', 'protocol', 4,
    'http.request.uri.query contains "\\\\"'),
];

const thresholdRule: ManagedRule = {
  id: OwaspThresholdRuleId,
  ref: 'ad0beb2fce9f149e565ee78d6e659d47',
  version: '35',
  description: '949110: Inbound Anomaly Score Exceeded',
  action: 'block',
  categories: [],
  enabled: true,
  last_updated: '2022-02-08T16:11:18.236676Z',
  score_threshold: OwaspScoreThresholds.medium,
};

/** The Cloudflare OWASP Core Ruleset. */
export const OwaspCoreRuleset: ManagedRuleset = {
  id: OwaspRulesetId,
  alias: 'owasp',
  name: 'Cloudflare OWASP Core Ruleset',
  description:
    "Cloudflare's implementation of the Open Web Application Security Project (OWASP) ModSecurity Core Rule Set. We routinely monitor for updates from OWASP based on the latest version available from the official code repository",
  version: '36',
  last_updated: '2024-11-18T09:12:44.000000Z',
  minimum_plan: 'pro',
  anomaly: true,
  rules: [...rules, thresholdRule],
};
