import { type RawBuilder, sql } from 'kysely';
import type { Interval } from '../availability/busy.js';
import { overlapBounds, overlappingBookings, takenTimes } from '../availability/load-host-time.js';
import { type HoldReader, overlappingHolds } from '../holds/held-times.js';
import { queueCalendarSync } from '../outbox/queue-calendar-sync.js';
import { insertOutboxRow, OUTBOX_COLUMNS, type outboxRow } from '../outbox/record-event.js';
import { insertNotificationRows, NOTIFICATION_COLUMNS, type NotificationRow } from '../outbox/record-notification.js';
import { MAX_REMINDER_RULES } from '../reminders/reminder-rules.js';
import { executePrepared } from '../storage/prepared-query.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Dialect, Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { BOOKING_COLUMNS, insertBookingRow, owesCalendarNow } from './insert-booking-row.js';

/** A new booking and what its create records with it: the `booking.created` event and the mail. */
export interface NewBookingWrite {
  readonly row: BookingsTable;
  readonly event: ReturnType<typeof outboxRow>;
  readonly mail: readonly NotificationRow[];
}

/**
 * Writes a new booking with its event and mail if the host has no confirmed
 * booking, and no one but the reader a live hold, overlapping `blocked` (the
 * slot widened by its buffers); false when one does, and nothing is written. The caller holds the host's lock
 * (lockHost), so the check sees every booking committed before it and no
 * other write for this host can come between the check and the insert.
 *
 * On PostgreSQL this is one statement (the check and the three inserts as
 * one data-modifying CTE): each statement is a round trip that costs both
 * processes CPU, and a create is the service's most frequent write
 * (README "Benchmarks"). SQLite runs in process, where a statement costs
 * little, so it runs them one by one.
 */
export async function writeNewBooking(
  trx: Executor,
  dialect: Dialect,
  write: NewBookingWrite,
  blocked: Interval,
  reader: HoldReader,
): Promise<boolean> {
  const { row, event, mail } = write;
  // The one statement inserts the booking alone; a booking with co-hosts is checked for each and written by writeBookingRows.
  // Stryker disable next-line ConditionalExpression,StringLiteral: a guard against a caller's mistake; no caller passes co-hosts.
  if (row.co_hosts_json !== '[]') throw new Error('writeNewBooking: a booking with co-hosts is written by writeBookingRows');
  if (dialect === 'postgres') {
    const build = insertIfFree(mail.length);
    const { rows } = await executePrepared(trx, build, [
      // Each parameter appears once in the statement (executePrepared): the holds' check takes its own copy of the bounds.
      ...[row.host_user_id, ...overlapBounds(blocked), toTimestamp(reader.nowMs)],
      ...[row.host_user_id, ...overlapBounds(blocked), toTimestamp(reader.nowMs), reader.holder],
      ...BOOKING_COLUMNS.map((column) => row[column]),
      ...OUTBOX_COLUMNS.map((column) => event[column]),
      ...mail.flatMap((m) => NOTIFICATION_COLUMNS.map((column) => m[column])),
    ]);
    if (rows.length === 0) return false;
    if (owesCalendarNow(row)) await queueCalendarSync(trx, row.uid, row.created_at);
    return true;
  }
  if ((await takenTimes(trx, row.host_user_id, blocked, reader)).length > 0) return false;
  await writeBookingRows(trx, write);
  return true;
}

/** Writes a new booking with its event and mail, statement by statement, once the caller has checked the slot under the host's lock. */
export async function writeBookingRows(trx: Executor, write: NewBookingWrite): Promise<void> {
  await insertBookingRow(trx, write.row);
  await insertOutboxRow(trx, write.event);
  await insertNotificationRows(trx, write.mail);
}

const columnList = (columns: readonly string[]) => sql.join(columns.map((column) => sql.ref(column)));
const valueList = (values: readonly unknown[]) => sql.join(values.map((value) => sql.val(value)));

/**
 * The PostgreSQL statement of writeNewBooking for a create with `mails`
 * mails, compiled once per count. Every value is a parameter in the order
 * writeNewBooking passes them. In READ COMMITTED the statement's snapshot is
 * taken when it starts, after the host's lock was granted by the statement
 * before, so the `not exists` sees every booking committed for the host.
 * Each insert after the first selects from it: no booking, nothing else.
 */
function insertIfFreeWith(mails: number) {
  return (db: Executor, ...args: unknown[]) => {
    const [hostId, lowest, before, after, bookingNow, holdHost, holdLowest, holdBefore, holdAfter, now, holder] = args as string[];
    let at = 11;
    const take = (n: number) => {
      const taken = args.slice(at, at + n);
      at += n;
      return taken;
    };
    const booking = take(BOOKING_COLUMNS.length);
    const event = take(OUTBOX_COLUMNS.length);
    const mailCtes: RawBuilder<unknown>[] = Array.from(
      { length: mails },
      (_, i) => sql`, ${sql.id(`mail_${i}`)} as (
        insert into "notifications" (${columnList(NOTIFICATION_COLUMNS)}) select ${valueList(take(NOTIFICATION_COLUMNS.length))} from "booking")`,
    );
    const statement = sql<{ uid: string }>`with "booking" as (
        insert into "bookings" (${columnList(BOOKING_COLUMNS)})
        select ${valueList(booking)}
        where not exists (${overlappingBookings(db, hostId!, lowest!, before!, after!, bookingNow!)})
        and not exists (${overlappingHolds(db, holdHost!, holdLowest!, holdBefore!, holdAfter!, now!, holder!)})
        returning "uid"),
      "event" as (insert into "outbox" (${columnList(OUTBOX_COLUMNS)}) select ${valueList(event)} from "booking")
      ${sql.join(mailCtes, sql``)}
      select "uid" from "booking"`;
    return { compile: () => statement.compile(db) };
  };
}

// A create queues one mail (the host's) or two (and the attendee's), and its reminders (at most
// MAX_REMINDER_RULES rules, each to the attendee and the host): one statement for each count, made once.
const MAX_MAILS = 2 + 2 * MAX_REMINDER_RULES;
const statements = new Map<number, ReturnType<typeof insertIfFreeWith>>();
function insertIfFree(mails: number) {
  if (mails > MAX_MAILS) throw new Error(`writeNewBooking: at most ${MAX_MAILS} mails per booking`);
  let statement = statements.get(mails);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: PostgreSQL only (SQLite writes statement by statement); a statement made again is the same statement.
  if (statement === undefined) {
    statement = insertIfFreeWith(mails);
    statements.set(mails, statement);
  }
  return statement;
}
