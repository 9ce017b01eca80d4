import type { Principal } from '../auth/principal.js';
import { mayActFor } from '../auth/roles.js';
import { visitorManages } from '../auth/visitor.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import { runPrepared } from '../storage/prepared-query.js';
import type { Executor } from '../storage/store.js';
import { type BookingRow, coHostsOf, selectBookings } from './booking-rows.js';

/**
 * The booking with this uid, if the caller can see it. Malformed, unknown and
 * invisible uids all answer `404 booking_not_found`, so existence never leaks.
 * Each of its hosts sees it; a visitor sees only the booking its manage link
 * names (auth/visitor.ts).
 */
export async function findVisibleBooking(db: Executor, principal: Principal, uid: string): Promise<BookingRow> {
  const notFound = () => new ScheduleError('booking_not_found', 'No booking with this uid.', { uid });
  // Stryker disable next-line ConditionalExpression: equivalent: booking uids are UUIDs in a text column on both stores, so a uid that is none matches no row and the same 404 follows; raw-call-bounds.ts refuses a param no store can hold (a NUL byte) before here.
  if (!isUuid(uid)) throw notFound();
  const [row] = await runPrepared(db, bookingByUid, [uid.toLowerCase()]);
  if (!row || !(hosts(row).some((id) => mayActFor(principal.actsFor, id)) || visitorManages(principal, row.uid))) throw notFound();
  return row;
}

/** Everyone who hosts the booking: its host and its co-hosts (a collective type's), each of whom sees it. */
const hosts = (row: BookingRow) => [row.host_user_id, ...coHostsOf(row).map((h) => h.user_id)];

const bookingByUid = (db: Executor, uid: string) => selectBookings(db).where('bookings.uid', '=', uid);
