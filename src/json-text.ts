/**
 * JSON text that zonewall reads from a file it is given (`serve --credentials FILE`, `serve --limits
 * FILE`, a saved plan for `apply PLANFILE`, a Terraform state for `migrate --from-terraform-state`):
 * `JSON.parse` keeps the last of a key written twice and says nothing, so these readers refuse a
 * repeated key at its `FILE:LINE:COLUMN`, and say where a text that is not JSON breaks, without
 * quoting any of it (a credentials file holds secrets). Neutral (no module's concern, imports
 * nothing): the engine, apply and migrate use it. Not for API request bodies: the service reads
 * those as `JSON.parse` does (the last of a repeated key wins), and so does the engine.
 */

/** Where a value sits in a JSON document: object keys and array indexes from the top. */
export type JsonPath = readonly (string | number)[];

/** A key written twice in one object. */
export interface DuplicateJsonKey {
  key: string;
  /** The path of the object holding the key twice. */
  path: JsonPath;
  /** The offset of the repeat (its opening quote), and of the first. */
  offset: number;
  firstOffset: number;
}

type Frame = { keys: Map<string, number>; hasKey: boolean } | { index: number };

/**
 * The first key written twice in one object of `text`, which must be JSON (`JSON.parse` took it), or
 * undefined. `onValue`, when given, is called with the path and offset of every value where it
 * starts (the path is live: copy it to keep it). One pass over the text, no values built.
 * @example const dup = firstDuplicateKey('{"a": 1, "a": 2}'); // { key: 'a', path: [], offset: 9, firstOffset: 1 }
 */
export function firstDuplicateKey(text: string, onValue?: (path: JsonPath, offset: number) => void): DuplicateJsonKey | undefined {
  const stack: Frame[] = [];
  const path: (string | number)[] = [];
  let expectKey = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a /* : */ || c === 0xfeff) {
      i++;
    } else if (c === 0x7b /* { */) {
      onValue?.(path, i);
      stack.push({ keys: new Map(), hasKey: false });
      expectKey = true;
      i++;
    } else if (c === 0x5b /* [ */) {
      onValue?.(path, i);
      stack.push({ index: 0 });
      path.push(0);
      expectKey = false;
      i++;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]!;
      if ('index' in top) {
        top.index++;
        path[path.length - 1] = top.index;
      } else {
        path.pop();
        expectKey = true;
      }
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      const top = stack.pop()!;
      if ('index' in top || top.hasKey) path.pop();
      expectKey = false;
      i++;
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (expectKey && top !== undefined && 'keys' in top) {
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
        const first = top.keys.get(key);
        if (first !== undefined) return { key, path: path.slice(), offset: i, firstOffset: first };
        top.keys.set(key, i);
        top.hasKey = true;
        path.push(key);
        expectKey = false;
      } else {
        onValue?.(path, i);
      }
      i = end;
    } else {
      // A number, true, false or null: up to the next delimiter.
      onValue?.(path, i);
      i++;
      while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
    }
  }
  return undefined;
}

/** White space, `,`, `]` or `}`: what ends a number or a literal. */
function isDelimiter(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x2c || c === 0x5d || c === 0x7d;
}

/** The offset after the string literal opening at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** The 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * A path as the readers' messages write it: `credentials[0]`, `free.firewall_rules`; `root` names a
 * document that is a bare array (`[0]` reads `credentials[0]` with root `credentials`).
 */
export function formatJsonPath(path: JsonPath, root = ''): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `${out === '' ? root : ''}[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/**
 * The one line refusing a repeated key: `FILE:LINE:COLUMN: credentials[0] has "zones" twice (JSON
 * keeps only the last, silently): REMEDY`.
 */
export function duplicateKeyMessage(file: string, text: string, dup: DuplicateJsonKey, remedy = 'keep one', root = ''): string {
  const { line, column } = lineColumn(text, dup.offset);
  const where = dup.path.length === 0 ? 'the top-level object' : formatJsonPath(dup.path, root);
  return `${file}:${line}:${column}: ${where} has ${JSON.stringify(dup.key)} twice (JSON keeps only the last, silently): ${remedy}`;
}

/**
 * ` at line L, column C` of a `JSON.parse` error: where the parser says, else (V8 gives no position
 * for an unexpected token, and quotes the text instead) where `syntaxErrorOffset` finds it; never any
 * content.
 */
export function jsonErrorPlace(text: string, err: unknown): string {
  if (text.trim() === '') return ' (the file is empty)';
  const m = /position (\d+)/.exec(err instanceof Error ? err.message : '');
  const offset = m !== null ? Number(m[1]) : syntaxErrorOffset(text);
  if (offset === undefined) return '';
  const { line, column } = lineColumn(text, offset);
  return ` at line ${line}, column ${column}`;
}

class SyntaxAt {
  constructor(readonly offset: number) {}
}

/**
 * The offset of the first character where `text` stops being JSON, or undefined when it is JSON (or
 * nests too deep to follow). Only on the error path: `JSON.parse` reads the text first.
 */
export function syntaxErrorOffset(text: string): number | undefined {
  const n = text.length;
  const fail = (at: number): never => { throw new SyntaxAt(Math.min(at, n)); };
  const ws = (i: number): number => {
    while (i < n && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
    return i;
  };
  const digits = (i: number): number => {
    const start = i;
    while (i < n && text[i]! >= '0' && text[i]! <= '9') i++;
    return i > start ? i : fail(i);
  };
  const string = (i: number): number => {
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return i + 1;
      if (c < 0x20) fail(i);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          for (let h = i + 2; h < i + 6; h++) if (!/[0-9a-fA-F]/.test(text[h] ?? '')) fail(h);
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail(i + 1);
      }
    }
    return fail(n);
  };
  const value = (i: number): number => {
    i = ws(i);
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i = ws(i + 1);
      if (text[i] === close) return i + 1;
      for (;;) {
        if (c === '{') {
          if (text[i] !== '"') fail(i);
          i = ws(string(i));
          if (text[i] !== ':') fail(i);
          i++;
        }
        i = ws(value(i));
        if (text[i] === close) return i + 1;
        if (text[i] !== ',') fail(i);
        i = ws(i + 1);
      }
    }
    if (c === '"') return string(i);
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      if (c === '-') i++;
      i = text[i] === '0' ? i + 1 : digits(i);
      if (text[i] === '.') i = digits(i + 1);
      if (text[i] === 'e' || text[i] === 'E') {
        i++;
        if (text[i] === '+' || text[i] === '-') i++;
        i = digits(i);
      }
      return i;
    }
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return i + word.length;
    return fail(i);
  };
  try {
    const end = ws(value(0));
    return end === n ? undefined : end;
  } catch (err) {
    if (err instanceof SyntaxAt) return err.offset;
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}
