/**
 * The shape trie of `wire-decoder.ts`: the sequences of one-byte property names the decoded
 * objects had (V8's own transition tree, rebuilt for decoding), each with a counter and, once
 * seen often enough, a compiled function that builds an object of that shape as one literal.
 */

/** Builds an object of one shape from its values at `values[base...]`. */
export type Builder = (values: unknown[], base: number) => Record<string, unknown>;

/** Objects are built by a shape's compiled literal once that shape has been seen this often. */
const COMPILE_AFTER = 4;
/** Bounds of one decoder's trie (each object session has one): shapes in all, properties per shape. */
const MAX_SHAPES = 256;
const MAX_SHAPE_DEPTH = 64;

/**
 * A node of the shape trie: the one-byte property names of an object so far, in order (V8's own
 * transition tree, rebuilt for decoding). The root has no name.
 */
export interface Shape {
  /** The last property's name and its Latin-1 bytes. */
  readonly name: string;
  readonly bytes: Buffer;
  /** Number of properties. */
  readonly depth: number;
  /** The successor taken last: compared first. */
  next: Shape | null;
  children: Map<string, Shape> | null;
  /** Builds an object of this shape from the value stack. */
  build: Builder | null;
  uses: number;
  readonly parent: Shape | null;
}

/** The names of `shape`, first to last. */
function shapeNames(shape: Shape, root: Shape): string[] {
  const names: string[] = [];
  for (let s: Shape | null = shape; s !== root && s !== null; s = s.parent) names.push(s.name);
  return names.reverse();
}

/**
 * A function that builds an object of `shape` as one object literal: V8 creates a literal from a
 * boilerplate with its final hidden class, where assigning the properties one by one walks the
 * transitions through a megamorphic keyed store each time (about half the cost of decoding a small
 * record). The names are Latin-1 strings written with JSON.stringify, and never `__proto__` (refused
 * before a shape is made), so the literal defines exactly the properties assignment would.
 */
function compileShape(shape: Shape, root: Shape): Builder {
  const fields = shapeNames(shape, root).map((name, i) => `${JSON.stringify(name)}: v[b + ${i}]`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see above: built from data, not code
  return new Function('v', 'b', `return { ${fields.join(', ')} };`) as Builder;
}

/** One decoder's shape trie, bounded by MAX_SHAPES nodes and MAX_SHAPE_DEPTH properties. */
export class ShapeTrie {
  /** The shape of an object with no properties yet. */
  readonly root: Shape = { name: '', bytes: Buffer.alloc(0), depth: 0, next: null, children: null, build: null, uses: 0, parent: null };
  #count = 0;

  /** The shape `shape` takes with property `name` after it (made now if new); null when full. */
  child(shape: Shape, name: string): Shape | null {
    let child = shape.children?.get(name);
    if (child === undefined) {
      if (this.#count >= MAX_SHAPES || shape.depth >= MAX_SHAPE_DEPTH) return null;
      this.#count++;
      child = { name, bytes: Buffer.from(name, 'latin1'), depth: shape.depth + 1, next: null, children: null, build: null, uses: 0, parent: shape };
      (shape.children ??= new Map()).set(name, child);
    }
    shape.next = child;
    return child;
  }

  /** The builder of `shape`, compiled on its COMPILE_AFTER-th use; null before. */
  builder(shape: Shape): Builder | null {
    if (shape.build === null && ++shape.uses >= COMPILE_AFTER) shape.build = compileShape(shape, this.root);
    return shape.build;
  }
}
