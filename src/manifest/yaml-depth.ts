/**
 * How deep YAML text nests, measured before anything recursive touches it. The `yaml` package's
 * parser keeps an explicit stack, but its composer (and `toJS`) recurse, and a file nested a few
 * thousand levels deep (`[[[[...`, or ever deeper block indentation) runs them out of call stack:
 * the user would read "Maximum call stack size exceeded". Walking the parser's concrete syntax tree
 * with a stack of our own finds the first node past the limit instead, so every YAML input
 * zonewall reads (manifests, cases files) is refused with a positioned "nesting deeper than N
 * levels" first.
 */
import { Parser, type CST } from 'yaml';
import { ManifestLimits } from './limits.js';

/** The message for a node nested past the limit; the same words on every reader. */
export function nestingMessage(max: number = ManifestLimits.maxDepth): string {
  return `nesting deeper than ${max} levels (no manifest or cases file needs more than a few): check the indentation and brackets here`;
}

/** The concrete syntax tree of `text` (documents and their nodes), from the `yaml` package's stack-based parser. */
export function yamlTokens(text: string, onNewLine?: (offset: number) => void): CST.Token[] {
  return Array.from(new Parser(onNewLine).parse(text));
}

/** The children of a node: collection items' keys and values, a document's value. */
function childrenOf(token: CST.Token): CST.Token[] {
  if (token.type === 'document') return token.value === undefined ? [] : [token.value];
  if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') return [];
  const out: CST.Token[] = [];
  for (const item of token.items) {
    if (item.key !== undefined && item.key !== null) out.push(item.key);
    if (item.value !== undefined) out.push(item.value);
  }
  return out;
}

/**
 * The offset of the first node nested deeper than `max` (a document's top node is at depth 0,
 * counted as the manifest readers count), or undefined when none is. Never recurses.
 * @example tooDeep(yamlTokens('a: [[1]]'), 1) // 4, the offset of the inner list
 */
export function tooDeep(tokens: readonly CST.Token[], max: number = ManifestLimits.maxDepth): number | undefined {
  const stack: { token: CST.Token; depth: number }[] = [];
  for (const token of tokens) if (token.type === 'document') stack.push(...childrenOf(token).map((t) => ({ token: t, depth: 0 })));
  let found: number | undefined;
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (depth > max) {
      // The earliest in the text, whatever order the stack visits them in.
      if (found === undefined || token.offset < found) found = token.offset;
      continue;
    }
    for (const child of childrenOf(token)) stack.push({ token: child, depth: depth + 1 });
  }
  return found;
}
