/**
 * The `errors` and `messages` of an envelope as zonewall reads them. A service (a proxy, a mock,
 * another version) may send them in other shapes than the API's list of `{code, message}`: a bare
 * string, one object instead of a list, `null` items, a message that is an object, an `error_chain`
 * that is not a list. Each becomes what it says as `ApiMessage`s, so a refusal is one readable line
 * (`refused with HTTP 400: boom`), never a TypeError or `[object Object]`.
 */
import type { ApiMessage } from './transport.js';

/** Longest text kept of a message that was not a string (its JSON). */
const MaxMessageText = 200;

/** The messages of `value` (an envelope's `errors` or `messages`), whatever its shape; none for nothing readable. */
function apiMessagesOf(value: unknown): ApiMessage[] {
  const items: unknown[] = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const out: ApiMessage[] = [];
  for (const item of items) {
    const message = apiMessageOf(item);
    if (message !== undefined) out.push(message);
  }
  return out;
}

/** Whether `value` is already a list of well-formed messages (the API's shape): read as it is. */
function wellFormed(value: unknown): value is ApiMessage[] {
  return Array.isArray(value) && value.every((m: unknown) => m !== null && typeof m === 'object'
    && typeof (m as ApiMessage).message === 'string' && ((m as ApiMessage).code === undefined || typeof (m as ApiMessage).code === 'number')
    && ((m as ApiMessage).error_chain === undefined || wellFormed((m as ApiMessage).error_chain)));
}

/** `value` when it is the API's shape, else its readable messages. */
export function readApiMessages(value: unknown): ApiMessage[] {
  return wellFormed(value) ? value : apiMessagesOf(value);
}

function apiMessageOf(item: unknown): ApiMessage | undefined {
  if (item === undefined || item === null) return undefined;
  if (typeof item === 'string') return item.trim() === '' ? undefined : { message: item };
  if (typeof item === 'number') return Number.isInteger(item) ? { code: item, message: '' } : { message: String(item) };
  if (typeof item !== 'object' || Array.isArray(item)) return { message: textOf(item) };
  const record = item as Record<string, unknown>;
  const code = typeof record.code === 'number' && Number.isInteger(record.code) ? record.code
    : typeof record.code === 'string' && /^\d+$/.test(record.code) ? Number(record.code) : undefined;
  const text = typeof record.message === 'string' ? record.message : record.message === undefined || record.message === null ? '' : textOf(record.message);
  const chain = record.error_chain === undefined ? [] : apiMessagesOf(record.error_chain);
  if (code === undefined && text === '' && chain.length === 0) {
    const rest = textOf(item);
    return rest === '{}' ? undefined : { message: rest };
  }
  const out: ApiMessage = { message: text };
  if (code !== undefined) out.code = code;
  if (chain.length > 0) out.error_chain = chain;
  return out;
}

function textOf(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MaxMessageText ? `${text.slice(0, MaxMessageText)}…` : text;
}
