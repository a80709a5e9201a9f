/**
 * The previous WAF's `OWASP ModSecurity Core Rule Set` package (`c504870194831cd12c3fc0284f294abb`,
 * anomaly detection, OWASP CRS 2.x): its groups (real names; `OWASP Bad Robots` has its real id, the
 * others zonewall-assigned ids) and a realistic subset of rules with CRS 2.x ids and messages. The
 * `Slr Et ...` groups held SpiderLabs Research rules whose ids are not public: theirs are
 * illustrative. Every rule's mode is `on` or `off` (default `on`); a match adds its score, and the
 * package's sensitivity sets the threshold (High 25, Medium 40, Low 60) at which its action mode
 * applies, reported as rule `981176` (the id sampled logs show when OWASP blocks).
 */
import { LegacyOwaspThresholds, PreviousWafPackageIds } from '../../api/index.js';
import { OwaspRulesetId } from './owasp-ruleset.js';
import type { LegacyGroup, LegacyPackage, LegacyRule } from './types.js';

/** The real id of the previous WAF's OWASP package. */
export const OwaspPackageId = PreviousWafPackageIds.owasp;
/** The rule sampled logs show when the OWASP package's anomaly score is exceeded. */
export const LegacyOwaspThresholdRuleId = '981176';
/** Anomaly thresholds of the previous OWASP package by sensitivity (real; AJAX requests used 120/80/65). */
export { LegacyOwaspThresholds };

let priority = 0;
function r(id: string, description: string, score: number, expression?: string): LegacyRule {
  priority += 1;
  const rule: LegacyRule = { id, description, priority: String(priority), kind: 'anomaly', score };
  return expression === undefined ? rule : { ...rule, expression };
}
function group(id: string, name: string, description: string | null, rules: LegacyRule[]): LegacyGroup {
  return { id, name, description, rules };
}

const sqlChars = 'http.request.uri.query matches "([\'\\";()][^\'\\";()]*){4}"';

/** The previous WAF's OWASP package. */
export const OwaspPackage: LegacyPackage = {
  id: OwaspPackageId,
  alias: 'owasp',
  name: 'OWASP ModSecurity Core Rule Set',
  description: 'Covers OWASP Top 10 vulnerabilities, and more.',
  detection_mode: 'anomaly',
  replaced_by: OwaspRulesetId,
  groups: [
    group('07d700cf30fda7548be94ff01087d0c4', 'OWASP Bad Robots', 'Contains rules to block known bad robots', [
      r('990002', 'Request Indicates a Security Scanner Scanned the Site', 3, 'lower(http.user_agent) contains "nikto" or lower(http.user_agent) contains "sqlmap"'),
      r('990012', 'Rogue web site crawler', 3, 'lower(http.user_agent) contains "webcopier" or lower(http.user_agent) contains "webzip"'),
      r('990901', 'Request Indicates a Security Scanner Scanned the Site', 3, 'any(http.request.headers.names[*] eq "Acunetix-Product")'),
    ]),
    group('0e87b004e6defe4310f04dc72f93edb5', 'OWASP Common Exceptions', 'Exceptions for common false positives', [
      r('981020', 'Common Exceptions: Apache internal dummy connection', 2),
    ]),
    group('a9d7871fdb21b269ea080ac764b15d4b', 'OWASP Generic Attacks', 'Rules that detect generic attacks', [
      r('950907', 'System Command Injection', 5, 'http.request.uri.query matches ";\\s*(cat|ls|id|uname)\\b"'),
      r('950011', 'SSI injection Attack', 5, 'http.request.uri.query contains "<!--#"'),
      r('950012', 'HTTP Request Smuggling Attack', 5),
      r('950117', 'Remote File Inclusion Attack', 5, 'http.request.uri.query matches "=(https?|ftp)://[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+"'),
      r('958977', 'PHP Injection Attack', 5, 'http.request.uri.query contains "<?php"'),
    ]),
    group('3638d5e9b3bb1901939e2d9092a2d5ee', 'OWASP HTTP Policy', 'Rules that enforce HTTP policies', [
      r('960032', 'Method is not allowed by policy', 2, 'not http.request.method in {"GET" "HEAD" "POST" "OPTIONS"}'),
      r('960035', 'URL file extension is restricted by policy', 2, 'http.request.uri.path.extension in {"bak" "config" "sql" "ini" "log"}'),
    ]),
    group('3f7bd73d01c68277c850f8d197cfdee9', 'OWASP Protocol Anomalies', 'Rules that detect protocol anomalies', [
      r('960015', 'Request Missing an Accept Header', 2),
      r('960009', 'Request Missing a User Agent Header', 2, 'http.user_agent eq ""'),
      r('960008', 'Request Missing a Host Header', 2, 'http.host eq ""'),
    ]),
    group('a5403dc3ee327ec916c2913d98cc5d17', 'OWASP Protocol Violations', 'Rules that detect protocol violations', [
      r('960901', 'Invalid character in request', 4, 'http.request.uri contains "%00"'),
      r('950107', 'URL Encoding Abuse Attack Attempt', 4, 'http.request.uri.query matches "%[^0-9a-fA-F]"'),
    ]),
    group('238cff43d8a55666ac8472cf99e8d82e', 'OWASP Request Limits', 'Rules that limit request sizes', [
      r('960335', 'Too many arguments in request', 3),
      r('960208', 'Argument value too long', 3),
    ]),
    group('62e565d9c21f3b7d3de8b36442ab7c80', 'OWASP Slr Et Joomla Attacks', null, [
      r('2200910', 'SLR: Joomla component arbitrary file upload', 5, 'http.request.uri.query contains "option=com_jce" and http.request.uri.query contains "task=plugin"'),
    ]),
    group('a624d0c036c85156b47966a1dd4aacfd', 'OWASP Slr Et Lfi Attacks', null, [
      r('2201013', 'SLR: Local file inclusion via phpThumb', 5, 'http.request.uri.path contains "phpThumb.php" and http.request.uri.query contains "../"'),
    ]),
    group('0e136c83192ba581215a1cc505abf6e2', 'OWASP Slr Et PhpBB Attacks', null, [
      r('2200950', 'SLR: phpBB viewtopic.php highlight code execution', 5, 'http.request.uri.path contains "viewtopic.php" and http.request.uri.query contains "highlight=%27"'),
    ]),
    group('a73f231283142801bd05360be842040d', 'OWASP Slr Et RFI Attacks', null, [
      r('2201020', 'SLR: Remote file inclusion via base_path parameter', 5, 'http.request.uri.query contains "base_path=http"'),
    ]),
    group('6081c86d97e1651a29cab6cf526cac9d', 'OWASP Slr Et SQLi Attacks', null, [
      r('2200911', 'SLR: SQL injection in id parameter', 5, 'lower(http.request.uri.query) contains "id=-1 union"'),
    ]),
    group('d2f1194b5c81cd7ffabb11c764e7e7b2', 'OWASP Slr Et WordPress Attacks', null, [
      r('2201030', 'SLR: WordPress TimThumb remote file inclusion', 5, 'http.request.uri.path contains "timthumb.php" and http.request.uri.query contains "src=http"'),
    ]),
    group('cda338910cb2811663bdb25a73a28727', 'OWASP Slr Et XSS Attacks', null, [
      r('2201040', 'SLR: Cross-site scripting in search parameter', 5, 'lower(http.request.uri.query) contains "s=<script"'),
    ]),
    group('37a7c471de2c2ffc2ea50dc366b8a454', 'OWASP SQL Injection Attacks', 'Rules that detect SQL injection attacks', [
      r('950901', 'SQL Injection Attack: SQL Tautology Detected.', 5, 'http.request.uri.query matches "(?i)\'\\s*or\\s*\'?1\'?\\s*=\\s*\'?1"'),
      r('959073', 'SQL Injection Attack', 5, 'http.request.uri.query matches "(?i)union(\\s|\\+|%20)+select"'),
      r('981173', 'Restricted SQL Character Anomaly Detection Alert - Total # of special characters exceeded', 3, sqlChars),
      r('981242', 'Detects classic SQL injection probings 1/2', 5, 'lower(http.request.uri.query) contains "\' or \'"'),
    ]),
    group('37d57432ca97649d5a3445180f5d46b2', 'OWASP Tight Security', 'Rules that apply tight security policies', [
      r('950103', 'Path Traversal Attack', 5, 'http.request.uri contains "../"'),
    ]),
    group('4b1604b5d422c0b2f543d6fee3eb3b62', 'OWASP Trojans', 'Rules that detect trojans and backdoors', [
      r('950110', 'Backdoor access', 5, 'http.request.uri.path contains "/c99.php" or http.request.uri.path contains "/r57.php"'),
    ]),
    group('a81f46f578189c7164a6ab5b93746a18', 'OWASP Uri SQL Injection Attacks', 'Rules that detect SQL injection in the URI', [
      r('981318', 'SQL Injection Attack: Common Injection Testing Detected', 5, 'http.request.uri.path contains "\'"'),
    ]),
    group('8bd1b34f00d7db82aa818e114f449df4', 'OWASP Uri XSS Attacks', 'Rules that detect cross-site scripting in the URI', [
      r('973335', 'IE XSS Filters - Attack Detected.', 5, 'lower(http.request.uri.path) contains "<script"'),
    ]),
    group('0e1a3300fdb52524baad73fcffcd24ff', 'OWASP XSS Attacks', 'Rules that detect cross-site scripting attacks', [
      r('973336', 'XSS Filter - Category 1: Script Tag Vector', 5, 'http.request.uri.query matches "(?i)<script[^>]*>"'),
      r('958000', 'Cross-site Scripting (XSS) Attack', 4, 'lower(http.request.uri.query) contains "javascript:"'),
      r('973300', 'Possible XSS Attack Detected - HTML Tag Handler', 3, 'lower(http.request.uri.query) contains "<img" or lower(http.request.uri.query) contains "<svg"'),
    ]),
  ],
};
