import { executePrepared } from '../storage/prepared-query.js';
import type { BookingsTable, CalendarSyncStatus } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';

const BOOKING_COLUMNS = [
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
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof BookingsTable)[];

// Compiled once: every value is a parameter in BOOKING_COLUMNS order.
const insertRow = (db: Executor, ...values: unknown[]) =>
  db.insertInto('bookings').values(Object.fromEntries(BOOKING_COLUMNS.map((column, i) => [column, values[i]])) as unknown as BookingsTable);

/** What every new booking starts with, whoever books it: confirmed, version 1, nothing canceled, synced or imported. */
export const NEW_BOOKING = {
  version: 1,
  status: 'confirmed',
  calendar_event_id: '',
  cancelled_at: null,
  cancellation_reason: null,
  no_show_at: null,
  no_show_reason: null,
  moved_by_invitee: 0,
  import_hash: null,
  canceled_by: null,
} as const satisfies Partial<BookingsTable>;

/**
 * No calendar writer exists yet: on a host with conflict calendars a new
 * booking waits to be written (`pending`); without any, there is nothing to
 * sync (`not_applicable`, api.md).
 */
export function syncStatusFor(host: { readonly calendars: readonly unknown[] }): CalendarSyncStatus {
  return host.calendars.length > 0 ? 'pending' : 'not_applicable';
}

/** Inserts one whole booking row; booking creates and series occurrences both write through here. */
export async function insertBookingRow(trx: Executor, row: BookingsTable): Promise<void> {
  await executePrepared(
    trx,
    insertRow,
    BOOKING_COLUMNS.map((column) => row[column]),
  );
}
