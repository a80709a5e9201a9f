/**
 * The storage layer of zonewall (seed 001): stateful objects with transactional storage
 * (`ctx.storage` KV, SQL, PITR, alarms) over better-sqlite3. This file is its public surface;
 * other modules import storage only from here.
 */
export { ObjectNamespace, type ObjectNamespaceOptions, type ObjectClass, type ObjectStub } from './namespace.js';
export { ObjectState, ObjectId } from './state.js';
export { ObjectStorage, type GetAlarmOptions, type SetAlarmOptions } from './storage.js';
export { ObjectTransaction } from './transaction.js';
export { SqlStorage } from './sql.js';
export { SqlStorageCursor, SqlStorageRawCursor, type SqlStorageValue, type SqlRow } from './cursor.js';
export type { GetOptions, PutOptions, ListOptions } from './list-options.js';
export { AlarmDefaults, type AlarmInvocationInfo, type AlarmRetryOptions } from './alarms.js';
export { StorageLimits } from './limits.js';
export type { Backend } from './session.js';
export {
  StorageError, StorageTypeError, StorageRangeError, SqlError, TransactionError, StorageUnsupportedError,
  StorageResetError, StorageLockedError, StorageAccessError, StorageWriteError,
} from './errors.js';
export { accessError, findBlocked, type Blocked } from './access.js';
