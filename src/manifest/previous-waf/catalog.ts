/**
 * The previous WAF's package aliases, accepted as keys of `previous_waf.packages`, and which
 * packages are traditional (ids are the same in every account: reference/api-facts.md §5).
 */

/** Previous WAF package aliases accepted as keys of `previous_waf.packages`. */
export const PreviousWafPackageAliases = {
  owasp: 'c504870194831cd12c3fc0284f294abb',
  cloudflare: '1e334934fd7ae32ad705667f8c1057aa',
} as const;

/** The CloudFlare package is traditional: it has no sensitivity or action mode (the service answers 1027). */
export const TraditionalPackageIds: ReadonlySet<string> = new Set([PreviousWafPackageAliases.cloudflare]);

/** Resolves a previous WAF package alias to its id; ids pass through unchanged. */
export function resolvePackage(key: string): string {
  return Object.hasOwn(PreviousWafPackageAliases, key)
    ? PreviousWafPackageAliases[key as keyof typeof PreviousWafPackageAliases]
    : key;
}
