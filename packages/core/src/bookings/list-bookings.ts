import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { decodeCursor, type Page, pageOf, queryBinding } from '../pagination/cursor.js';
import { booleanParam, csvParam, cursorParam, DATE_OR_INSTANT, instantParam, limitParam } from '../pagination/query-params.js';
import { BOOKING_STATUSES, type Database } from '../storage/schema.js';
import type { Store } from '../storage/store.js';
import { DAY_MS, toTimestamp } from '../time.js';
import { uuid } from '../validation/fields.js';
import { type BookingRow, selectBookings, toBooking } from './booking-rows.js';
import type { Booking } from './booking-view.js';

export const BOOKING_SORTS = ['start_at_desc', 'start_at_asc', 'created_at_desc', 'updated_at_asc', 'updated_at_desc'] as const;
export type BookingSort = (typeof BOOKING_SORTS)[number];

/**
 * `uid_prefix`: the bookings whose uid starts so, as a person types the
 * first characters of one (the CLI takes a short uid, as git takes a short
 * commit id). Only what a uid is made of, so the text is never a LIKE
 * pattern, and compared in lower case, as uids are stored.
 */
const uidPrefixParam = z
  .string()
  .regex(/^[0-9a-fA-F-]{1,36}$/, 'must be 1 to 36 characters of a uid: hex digits and hyphens')
  .transform((text) => text.toLowerCase())
  .meta({ description: 'Only bookings whose uid starts with this (1 to 36 hex digits and hyphens, any case).', examples: ['3d6f2a10'] });

/** The query of `GET /v1/bookings` (docs/api). */
export const listBookingsQuerySchema = z.object({
  limit: limitParam(),
  cursor: cursorParam,
  sort: z.enum(BOOKING_SORTS).default('start_at_desc').meta({ description: 'The order; latest start first by default.' }),
  event_type_id: uuid.optional().meta({ description: 'Only this event type.' }),
  host_user_id: uuid.optional().meta({ description: 'Only this host.' }),
  series_id: z.string().optional().meta({ description: "Only this series' occurrences (series uid)." }),
  attendee_email: z.string().optional().meta({ description: 'Attendee email, exact match.' }),
  status: csvParam(BOOKING_STATUSES).optional(),
  start_date: instantParam.optional().meta({ description: `Earliest start. ${DATE_OR_INSTANT}` }),
  end_date: instantParam.optional().meta({ description: `Latest start (a date: all of it). ${DATE_OR_INSTANT}` }),
  updated_since: instantParam.optional().meta({ description: `Changed at or after this. ${DATE_OR_INSTANT}` }),
  include_cancelled: booleanParam.optional().meta({ description: 'Without status: false leaves canceled ones out (default: in).' }),
  uid_prefix: uidPrefixParam.optional(),
});

export type ListBookingsQuery = z.output<typeof listBookingsQuerySchema>;

const SORT_KEYS: Record<BookingSort, { column: 'start_at' | 'created_at' | 'updated_at'; direction: 'asc' | 'desc' }> = {
  start_at_desc: { column: 'start_at', direction: 'desc' },
  start_at_asc: { column: 'start_at', direction: 'asc' },
  created_at_desc: { column: 'created_at', direction: 'desc' },
  updated_at_asc: { column: 'updated_at', direction: 'asc' },
  updated_at_desc: { column: 'updated_at', direction: 'desc' },
};

type BookingQuery = SelectQueryBuilder<Database & { host: Database['users'] }, 'bookings' | 'host' | 'event_types', BookingRow>;

/**
 * Bookings one of these users hosts: as their `host`, or as a co-host
 * (booking_hosts). As a set of uids from each index (host, start) and
 * (user, start): an `or exists` here made SQLite scan every booking of the
 * organization in start order instead.
 */
const hostedByAny =
  (ids: string[]) => (eb: ExpressionBuilder<Database & { host: Database['users'] }, 'bookings' | 'host' | 'event_types'>) =>
    eb(
      'bookings.uid',
      'in',
      eb
        .selectFrom('bookings as own')
        .select('own.uid')
        .where('own.host_user_id', 'in', ids)
        .unionAll(eb.selectFrom('booking_hosts').select('booking_hosts.booking_uid as uid').where('booking_hosts.user_id', 'in', ids)),
    );

/**
 * Lists the bookings the caller can see (hosted or co-hosted by someone they may act for),
 * filtered and sorted as asked, one keyset page at a time.
 */
export async function listBookings(deps: { store: Store }, principal: Principal, query: ListBookingsQuery): Promise<Page<Booking>> {
  const { limit, cursor, ...filters } = query;
  const binding = queryBinding(filters);
  const { column, direction } = SORT_KEYS[query.sort];
  let q: BookingQuery = selectBookings(deps.store.db);

  if (principal.actsFor.kind === 'users') q = q.where(hostedByAny([...principal.actsFor.ids]));
  if (query.event_type_id) q = q.where('bookings.event_type_id', '=', query.event_type_id);
  if (query.host_user_id) q = q.where(hostedByAny([query.host_user_id]));
  if (query.series_id) q = q.where('bookings.series_uid', '=', query.series_id);
  if (query.attendee_email !== undefined) q = q.where('bookings.attendee_email', '=', query.attendee_email);
  if (query.status) q = q.where('bookings.status', 'in', query.status);
  else if (query.include_cancelled === false) q = q.where('bookings.status', '<>', 'canceled');
  if (query.start_date) q = q.where('bookings.start_at', '>=', toTimestamp(query.start_date.epochMs));
  if (query.end_date) {
    // A date alone bounds the whole of that day; an instant bounds itself. Both inclusive.
    q = query.end_date.dateOnly
      ? q.where('bookings.start_at', '<', toTimestamp(query.end_date.epochMs + DAY_MS))
      : q.where('bookings.start_at', '<=', toTimestamp(query.end_date.epochMs));
  }
  if (query.updated_since) q = q.where('bookings.updated_at', '>=', toTimestamp(query.updated_since.epochMs));
  if (query.uid_prefix !== undefined) {
    // The range walks the primary key's index instead of every row. Every uid
    // with the prefix sorts at or after it and before it plus 'g' (above any
    // hex digit, and a letter, so a linguistic collation that passes over
    // hyphens orders it the same way); LIKE keeps only true prefixes whatever
    // the collation. The prefix holds no % or _ (uidPrefixParam).
    const prefix = query.uid_prefix;
    q = q.where('bookings.uid', '>=', prefix).where('bookings.uid', '<', `${prefix}g`).where('bookings.uid', 'like', `${prefix}%`);
  }

  if (cursor !== undefined) {
    const after = decodeCursor(cursor, binding);
    const past = direction === 'asc' ? '>' : '<';
    q = q.where((eb: ExpressionBuilder<Database, 'bookings'>) =>
      eb.or([
        eb(`bookings.${column}`, past, after.value),
        eb.and([eb(`bookings.${column}`, '=', after.value), eb('bookings.uid', past, after.uid)]),
      ]),
    );
  }

  const rows = await q
    .orderBy(`bookings.${column}`, direction)
    .orderBy('bookings.uid', direction)
    .limit(limit + 1)
    .execute();
  return pageOf(
    rows,
    limit,
    binding,
    (row) => ({ value: row[column], uid: row.uid }),
    (row) => toBooking(row, 'list'),
  );
}
