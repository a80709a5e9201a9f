/**
 * The slice of workerd's runtime API the Worker uses, typed here instead of depending on
 * `@cloudflare/workers-types`: the Durable Object base class (RPC methods), its state and
 * storage (seed 001's interface), namespaces and stubs.
 */
declare module 'cloudflare:workers' {
  /** Base class of a Durable Object whose public methods are callable over RPC. */
  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: DurableObjectState;
    protected readonly env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
}

/** `ctx.storage` of a SQLite-backed Durable Object (the calls the Worker makes itself). */
interface DurableObjectStorage {
  sql: unknown;
  transactionSync<T>(fn: () => T): T;
  getCurrentBookmark(): Promise<string>;
  getBookmarkForTime(time: number | Date): Promise<string>;
  onNextSessionRestoreBookmark(bookmark: string): Promise<string>;
  deleteAll(): Promise<void>;
}

/** `ctx` of a Durable Object. */
interface DurableObjectState {
  storage: DurableObjectStorage;
  abort(reason?: unknown): void;
}

/** An object id. */
interface DurableObjectId {
  toString(): string;
}

/** A stub: every method of the object, asynchronous. */
type DurableObjectStub<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

/** A Durable Object namespace binding. */
interface DurableObjectNamespace<T> {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub<T>;
}
