/**
 * A small router for the v4 paths: patterns like `/zones/:zone_id/filters/:filter_id`, matched
 * segment by segment. It tells apart "no such path" (404, the real service's 7003/7000) from "path
 * exists, wrong method" (405 with the allowed methods), so the server never guesses. Every path
 * segment is data: `.` and `..` (plain or percent-encoded) are never resolved, so
 * `DELETE /zones/Z/filters/%2e%2e` names a filter whose id is `..` (and finds none) instead of
 * the zone; an empty segment inside the path matches nothing (only one trailing slash is ignored).
 */

import type { HttpMethod } from '../api/index.js';

/** The HTTP methods the v4 API uses, and one of them (the wire contract's). */
export { HttpMethods, type HttpMethod } from '../api/index.js';

/** A route: a method, a pattern (`:name` segments capture) and whatever the owner attaches. */
export interface RouteLike {
  method: HttpMethod;
  pattern: string;
}

/** The outcome of matching a request against the routes. */
export type RouteMatch<R> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'method'; allowed: HttpMethod[] }
  | { kind: 'none' };

interface Compiled<R> {
  route: R;
  segments: string[];
}

/** The key that names a route across the zone object boundary: `GET /zones/:zone_id/filters`. */
export function routeKey(route: RouteLike): string {
  return `${route.method} ${route.pattern}`;
}

/**
 * Splits a path into decoded segments, as data: no dot-segment resolution, no merging of empty
 * segments. Undefined when a segment is not valid percent-encoding or the path is not absolute.
 */
export function splitPath(path: string): string[] | undefined {
  if (path.charCodeAt(0) !== 0x2f) return undefined;
  // One trailing slash is ignored (every request goes through here: no regular expression).
  const end = path.length > 1 && path.charCodeAt(path.length - 1) === 0x2f ? path.length - 1 : path.length;
  if (end <= 1) return [];
  const parts = path.slice(1, end).split('/');
  // Most paths have no escapes: decode only the segments that do (the same result, cheaper).
  if (!path.includes('%')) return parts;
  try {
    return parts.map((s) => (s.includes('%') ? decodeURIComponent(s) : s));
  } catch {
    return undefined;
  }
}

/** Matches method + path against a fixed list of routes. */
export class Router<R extends RouteLike> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[]) {
    const seen = new Set<string>();
    this.compiled = routes.map((route) => {
      const key = routeKey(route);
      if (seen.has(key)) throw new Error(`duplicate route ${key}`);
      seen.add(key);
      return { route, segments: route.pattern.split('/').filter((s) => s !== '') };
    });
  }

  /** Finds the route for `method` and `path` (relative to `/client/v4`; a trailing slash is ignored). */
  match(method: string, path: string): RouteMatch<R> {
    const segments = splitPath(path);
    if (segments === undefined) return { kind: 'none' };
    const allowed: HttpMethod[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, segments);
      if (params === undefined) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      if (!allowed.includes(c.route.method)) allowed.push(c.route.method);
    }
    return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
  }
}

function matchSegments(pattern: string[], path: string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  // Literal segments first: most routes fail there, before any parameter object is built.
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith(':') ? path[i] === '' : p !== path[i]) return undefined; // an empty id names nothing
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) if (pattern[i]!.startsWith(':')) params[pattern[i]!.slice(1)] = path[i]!;
  return params;
}
