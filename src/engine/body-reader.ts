/**
 * Request body validation. A `BodyReader` walks one JSON object, reads typed fields and collects
 * every problem (wrong type, missing, too long, unknown field) with a JSON pointer, so one refused
 * request lists all its reasons at once (octoDNS-style) instead of the first only.
 */
import { ApiError, apiMessage } from './api-errors.js';
import type { ApiMessage } from './types.js';

/** Collected validation problems of one request. */
export class Problems {
  readonly list: ApiMessage[] = [];

  /** Records a problem at `pointer`. */
  add(pointer: string, message: string): void {
    this.list.push(apiMessage('invalidField', message, { pointer }));
  }

  /** Throws a 400 listing every problem, if there are any. */
  throwIfAny(): void {
    if (this.list.length > 0) throw new ApiError(400, this.list);
  }
}

/** The JSON type name of a value, for messages. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Longest JSON text of a value that a message quotes whole. */
const QuotedMaxChars = 200;

/**
 * A value of a request, quoted for a message: its JSON text when short, else its JSON type and
 * length. A body may nest 100,000 deep (JSON.parse does not recurse, but JSON.stringify does and
 * overflows the stack) or be megabytes long, and neither belongs in a one-line error.
 */
export function quote(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return `a deeply nested ${jsonType(value)}`;
  }
  if (text === undefined) return String(value);
  return text.length <= QuotedMaxChars ? text : `${jsonType(value)} of ${text.length} characters of JSON`;
}

/** A key as one reference token of a JSON pointer (RFC 6901: `~` is `~0`, `/` is `~1`). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Reads the fields of one JSON object in a request body. */
export class BodyReader {
  private readonly obj: Record<string, unknown>;
  /** False when the value was not an object (a problem was recorded; every read returns undefined). */
  readonly valid: boolean;

  constructor(value: unknown, readonly pointer: string, readonly problems: Problems, what = 'an object') {
    this.valid = typeof value === 'object' && value !== null && !Array.isArray(value);
    this.obj = this.valid ? (value as Record<string, unknown>) : {};
    if (!this.valid) problems.add(pointer || '/', `expected ${what}, got ${value === undefined && pointer === '' ? 'no body' : jsonType(value)}`);
  }

  /** Records every field not in `allowed` as unknown. */
  allowOnly(allowed: readonly string[]): void {
    for (const key of Object.keys(this.obj)) {
      if (!allowed.includes(key)) this.problems.add(this.at(key), `unknown field ${JSON.stringify(key)} (allowed: ${allowed.join(', ')})`);
    }
  }

  /** True when the field is present (even if null). */
  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.obj, key);
  }

  /** The raw value of a field. */
  raw(key: string): unknown {
    return this.obj[key];
  }

  /** The JSON pointer of a field. */
  at(key: string): string {
    return `${this.pointer}/${pointerToken(key)}`;
  }

  /** A string field, optionally required, with a maximum length in characters. */
  string(key: string, opts: { required?: boolean; maxLength?: number; nonEmpty?: boolean } = {}): string | undefined {
    if (!this.has(key)) {
      if (opts.required && this.valid) this.problems.add(this.at(key), `${key} is required`);
      return undefined;
    }
    const v = this.obj[key];
    if (typeof v !== 'string') return this.wrong(key, 'a string', v);
    if (opts.nonEmpty && v.trim() === '') return this.bad(key, `${key} must not be empty`);
    if (opts.maxLength !== undefined && v.length > opts.maxLength) {
      return this.bad(key, `${key} is ${v.length} characters long; the limit is ${opts.maxLength}`);
    }
    return v;
  }

  /** A string field whose value must be one of `values`. */
  oneOf<T extends string>(key: string, values: readonly T[], opts: { required?: boolean } = {}): T | undefined {
    const v = this.string(key, opts);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) {
      return this.bad(key, `${key} must be one of ${values.join(', ')}; got ${JSON.stringify(v)}`);
    }
    return v as T;
  }

  /** A boolean field. */
  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    return typeof v === 'boolean' ? v : this.wrong(key, 'true or false', v);
  }

  /** A number field within [min, max], or null when `nullable`; `undefined` when absent. */
  number(key: string, opts: { min: number; max: number; nullable?: boolean }): number | null | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    if (v === null && opts.nullable) return null;
    if (typeof v !== 'number' || !Number.isFinite(v)) return this.wrong(key, opts.nullable ? 'a number or null' : 'a number', v);
    if (v < opts.min || v > opts.max) return this.bad(key, `${key} must be from ${opts.min} to ${opts.max}; got ${v}`);
    return v;
  }

  /** An array of strings, each one of `values`, without duplicates. */
  stringSet<T extends string>(key: string, values: readonly T[]): T[] | undefined {
    if (!this.has(key)) return undefined;
    const v = this.obj[key];
    if (!Array.isArray(v)) return this.wrong(key, 'an array of strings', v);
    const out: T[] = [];
    v.forEach((item, i) => {
      if (typeof item !== 'string' || !(values as readonly string[]).includes(item)) {
        this.problems.add(`${this.at(key)}/${i}`, `${key}[${i}] must be one of ${values.join(', ')}; got ${quote(item)}`);
      } else if (out.includes(item as T)) {
        this.problems.add(`${this.at(key)}/${i}`, `${key} lists ${JSON.stringify(item)} twice`);
      } else {
        out.push(item as T);
      }
    });
    return out;
  }

  private wrong(key: string, expected: string, got: unknown): undefined {
    return this.bad(key, `${key} must be ${expected}, got ${jsonType(got)}`);
  }

  private bad(key: string, message: string): undefined {
    this.problems.add(this.at(key), message);
    return undefined;
  }
}

/** Requires the body to be a JSON array (the create and bulk endpoints), naming what it must hold. */
export function requireArray(body: unknown, what: string): unknown[] {
  if (!Array.isArray(body)) {
    throw ApiError.of('invalidField', `the request body must be a JSON array of ${what}, got ${body === undefined ? 'no body' : jsonType(body)}`, { pointer: '/' });
  }
  if (body.length === 0) throw ApiError.of('invalidField', `the request body is an empty array; it must be a JSON array of ${what}, with at least one`, { pointer: '/' });
  return body;
}

/** Requires the body to be one JSON object. */
export function requireObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ApiError.of('invalidField', `the request body must be ${what} (a JSON object), got ${body === undefined ? 'no body' : jsonType(body)}`, { pointer: '/' });
  }
  return body as Record<string, unknown>;
}
