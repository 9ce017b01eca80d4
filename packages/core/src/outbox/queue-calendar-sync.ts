import { sql } from 'kysely';
import type { Executor } from '../storage/store.js';

/**
 * Queues a booking's event to be written to its host's CalDAV calendar,
 * inside the transaction that changed the booking: the write is owed
 * exactly when the change committed, and is made after commit by the
 * calendar sync (docs/calendars.md), so a slow calendar never holds a
 * booking's transaction. Queueing again restarts the retries and moves the
 * generation on, so an attempt for the booking's earlier state that ends
 * after this cannot mark the new state synced.
 */
export async function queueCalendarSync(trx: Executor, bookingUid: string, now: string): Promise<void> {
  await trx
    .insertInto('calendar_syncs')
    .values({ booking_uid: bookingUid, status: 'pending', next_attempt_at: now, updated_at: now })
    .onConflict((oc) => oc.column('booking_uid').doUpdateSet(queuedAgain(now)))
    .execute();
}

/** A queued write queued again: due now, its retries from the start, its generation moved on. */
function queuedAgain(now: string) {
  return {
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    updated_at: now,
    generation: sql<number>`calendar_syncs.generation + 1`,
  };
}

/**
 * Queues again the calendar writes of bookings that have one already (a
 * host's failed ones, retried on request), exactly as queueCalendarSync
 * does, in one statement.
 */
export async function requeueCalendarSyncs(trx: Executor, bookingUids: readonly string[], now: string): Promise<void> {
  // Stryker disable next-line ConditionalExpression: SQLite takes an empty IN list, PostgreSQL refuses it (the nothing-failed re-sync test there pins it).
  if (bookingUids.length === 0) return;
  await trx.updateTable('calendar_syncs').set(queuedAgain(now)).where('booking_uid', 'in', bookingUids).execute();
}

/**
 * Whether a change to a booking owes its calendar a write: when the booking
 * is headed for a CalDAV calendar (`pending` asked by the change, or still
 * owed from before), or already has an event in one (`calendar_event_id`)
 * that must follow it, move, or go.
 */
export function owesCalendarWrite(
  row: { readonly calendar_sync_status: string; readonly calendar_event_id: string },
  changedStatus: string | undefined,
): boolean {
  return (
    changedStatus === 'pending' ||
    row.calendar_event_id !== '' ||
    row.calendar_sync_status === 'pending' ||
    row.calendar_sync_status === 'failed'
  );
}
