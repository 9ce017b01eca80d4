import { queueCalendarSync } from '../outbox/queue-calendar-sync.js';
import { executePrepared } from '../storage/prepared-query.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';

export const BOOKING_COLUMNS = [
  'uid',
  'version',
  'event_type_id',
  'host_user_id',
  'title',
  'status',
  'start_at',
  'end_at',
  'timezone',
  'attendee_email',
  'attendees_json',
  'guests_json',
  'location_json',
  'metadata_json',
  'responses_json',
  'calendar_sync_status',
  'calendar_event_id',
  'rescheduled_from_uid',
  'cancelled_at',
  'cancellation_reason',
  'no_show_at',
  'no_show_reason',
  'series_uid',
  'pattern_instant',
  'moved_by_invitee',
  'import_hash',
  'canceled_by',
  'co_hosts_json',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof BookingsTable)[];

// Compiled once: every value is a parameter in BOOKING_COLUMNS order.
const insertRow = (db: Executor, ...values: unknown[]) =>
  db.insertInto('bookings').values(Object.fromEntries(BOOKING_COLUMNS.map((column, i) => [column, values[i]])) as unknown as BookingsTable);

/**
 * Inserts one whole booking row, and its co-hosts' rows; booking creates,
 * series occurrences and workspace imports all write through here. A booking headed for a CalDAV
 * calendar is queued for it in the same transaction.
 */
export async function insertBookingRow(trx: Executor, row: BookingsTable): Promise<void> {
  await executePrepared(
    trx,
    insertRow,
    BOOKING_COLUMNS.map((column) => row[column]),
  );
  if (row.co_hosts_json !== '[]') await insertCoHostRows(trx, row);
  if (owesCalendarNow(row)) await queueCalendarSync(trx, row.uid, row.created_at);
}

/** The booking's co-hosts in booking_hosts, where their availability finds the time it takes (migration 0018). */
async function insertCoHostRows(trx: Executor, row: BookingsTable): Promise<void> {
  const coHosts = JSON.parse(row.co_hosts_json) as { user_id: string }[];
  await trx
    .insertInto('booking_hosts')
    .values(coHosts.map((h) => ({ booking_uid: row.uid, user_id: h.user_id, start_at: row.start_at, end_at: row.end_at })))
    .execute();
}

/**
 * Whether a new booking is written to its host's CalDAV calendar as it
 * commits. A pending one is not: it goes there once confirmed (its
 * `calendar_sync_status` stays `pending` until then), so a calendar never
 * shows a request the host may decline (docs/api/choices.md).
 */
export function owesCalendarNow(row: Pick<BookingsTable, 'calendar_sync_status' | 'status'>): boolean {
  return row.calendar_sync_status === 'pending' && row.status === 'confirmed';
}
