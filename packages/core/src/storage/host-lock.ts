import { sql } from 'kysely';
import { ScheduleError } from '../errors.js';
import { executePrepared } from './prepared-query.js';
import type { Dialect, Executor } from './store.js';

/** How long a booking write waits for the host's lock before answering `503 slot_lock_timeout`. */
export const HOST_LOCK_TIMEOUT_MS = 2000;

/**
 * Takes the host's lock inside a write transaction, so that checking the
 * host's bookings for overlap and inserting one happen as one step: two
 * writers for one host run one after the other, in this process or another.
 * On PostgreSQL it is the host's row lock; SQLite transactions already hold
 * the whole database from `BEGIN IMMEDIATE`.
 */
export async function lockHost(trx: Executor, dialect: Dialect, hostId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await executePrepared(trx, lockHostRow, [hostId, `${HOST_LOCK_TIMEOUT_MS}ms`]);
}

/**
 * Takes several hosts' locks (a round-robin create's candidates), always in
 * the order of their ids: two writers that each need some of the same hosts
 * then never wait on each other in a circle, so they cannot deadlock. One
 * statement: PostgreSQL locks the rows as the sorted scan returns them.
 */
export async function lockHosts(trx: Executor, dialect: Dialect, hostIds: readonly string[]): Promise<void> {
  if (dialect !== 'postgres' || hostIds.length === 0) return;
  if (hostIds.length === 1) return lockHost(trx, dialect, hostIds[0]!);
  await trx
    .selectFrom('users')
    .select('id')
    .where('id', 'in', [...hostIds])
    .where(sql<string>`set_config('lock_timeout', ${`${HOST_LOCK_TIMEOUT_MS}ms`}, true)`, 'is not', null)
    .orderBy('id')
    .forUpdate()
    .execute();
}

// One round trip instead of two (`set local`, then the lock): set_config(..., true)
// is `set local`, and it runs in the scan that feeds the row to FOR UPDATE,
// so the timeout is in force before the lock is waited for. A missing host
// row has nothing to lock or wait for.
const lockHostRow = (db: Executor, hostId: string, timeout: string) =>
  db
    .selectFrom('users')
    .select('id')
    .where('id', '=', hostId)
    .where(sql<string>`set_config('lock_timeout', ${timeout}, true)`, 'is not', null)
    .forUpdate();

/**
 * True for PostgreSQL's lock_not_available. (SQLite's driver answers a file
 * another process holds too long as `slot_lock_timeout` itself, on every statement.)
 */
function isLockTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '55P03';
}

/** Runs a write, answering `503 slot_lock_timeout` with `Retry-After: 1` when its lock was not had in time. */
export async function mapLockTimeout<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isLockTimeout(error)) {
      throw new ScheduleError('slot_lock_timeout', 'The slot could not be locked in time; retry shortly.', {}, 1);
    }
    throw error;
  }
}
