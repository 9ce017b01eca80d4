import { sql } from 'kysely';
import { bookingMailPayload } from '../bookings/booking-mail.js';
import { selectBookings, toBooking } from '../bookings/booking-rows.js';
import type { Booking } from '../bookings/booking-view.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { recordEvent } from '../outbox/record-event.js';
import { PENDING_MAIL, type ReminderMailPayload } from '../outbox/record-notification.js';
import { type ReminderRule, reminderMoment, reminderVerdict, storedReminders } from '../reminders/reminder-rules.js';
import { attendeeSilenced, REMINDER_KIND, type ReminderPayload } from '../reminders/schedule-reminders.js';
import type { Executor, Store } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { ClaimedMail } from './claim-mail.js';

// What a dispatcher does with a reminder it claimed (docs/reminders.md),
// decided from the booking as it is when the reminder is due: a row queued
// days ahead is checked against the booking, its type's rules and the
// switches now, so a change that missed it (a rule removed, a host who
// turned reminders off, an attendee who opted out) still stops it.

/** The `booking.reminder` event: the booking, and whom and when it reminds. */
export interface ReminderEventPayload extends Booking {
  readonly reminder: {
    readonly to: 'attendee' | 'host';
    readonly recipient: { readonly email: string; readonly name: string; readonly timezone: string };
    readonly minutes: number;
    readonly relative_to: 'start' | 'end';
    readonly text: string | null;
    readonly due_at: string;
  };
}

export type ReminderPlan =
  /** No longer owed: the booking is gone, canceled or moved, the rule removed, or its recipient silenced. */
  | { readonly kind: 'drop' }
  /** Owed, but its moment passed beyond the grace window (or the meeting began): never sent late. */
  | { readonly kind: 'expired' }
  | {
      readonly kind: 'mail';
      readonly payload: ReminderMailPayload;
      readonly recipient: string;
      readonly bookingUid: string;
      readonly endAt: string;
    }
  | { readonly kind: 'webhook'; readonly payload: ReminderEventPayload; readonly bookingUid: string };

/** The rule a reminder was queued for, if the type still has it for that recipient (its text may have changed since). */
function ruleNow(rules: readonly ReminderRule[], queued: ReminderRule, role: 'attendee' | 'host'): ReminderRule | undefined {
  return rules.find(
    (r) =>
      r.minutes === queued.minutes && r.relative_to === queued.relative_to && r.via === queued.via && (r.to === role || r.to === 'both'),
  );
}

/** The bookings of some reminders with what governs their reminders now, in one statement. */
function remindedBookings(db: Executor, uids: readonly string[]) {
  // selectBookings joins the host already (as `host`) and the event type.
  return selectBookings(db)
    .select([
      'event_types.name as event_type_name',
      'event_types.reminders_json',
      'event_types.attendee_mail',
      'host.name as host_name',
      'host.timezone as host_timezone',
      'host.reminders as host_reminders',
    ])
    .select((eb) => [
      eb.selectFrom('organization').select('attendee_mail').where('id', '=', 1).as('organization_mail'),
      eb.selectFrom('series').select('notify_invitee').whereRef('series.uid', '=', 'bookings.series_uid').as('notify_invitee'),
    ])
    .where('bookings.uid', 'in', uids)
    .execute();
}

type RemindedRow = Awaited<ReturnType<typeof remindedBookings>>[number];
type Person = { readonly email: string; readonly name: string; readonly timezone: string };
/** A host as a reminder reads them: with their own switch. */
type HostPerson = Person & { readonly reminders: number };

/**
 * Decides, at `nowMs`, what to do with each reminder of a claimed batch:
 * their bookings are read in one statement (and a collective booking's other
 * hosts in one more), so a batch of reminders costs the dispatcher about what
 * a batch of other mail does.
 */
export async function planReminders(
  db: Executor,
  reminders: readonly { readonly id: string; readonly booking_uid: string | null; readonly payload_json: string }[],
  nowMs: number,
): Promise<Map<string, ReminderPlan>> {
  const queued = reminders.map((r) => ({ id: r.id, uid: r.booking_uid, payload: JSON.parse(r.payload_json) as ReminderPayload }));
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent: a null in `in (…)` matches no row.
  const uids = [...new Set(queued.flatMap((r) => (r.uid === null ? [] : [r.uid])))];
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: PostgreSQL only: an empty `in ()`, which SQLite answers with no rows.
  const rows = new Map((uids.length === 0 ? [] : await remindedBookings(db, uids)).map((row) => [row.uid, row]));
  // The hosts of host reminders who are not the booking's host: a collective booking's others.
  const others = [
    ...new Set(
      queued.flatMap((r) => {
        // Stryker disable next-line ConditionalExpression: equivalent: no booking is found by a null uid.
        const row = r.uid === null ? undefined : rows.get(r.uid);
        const userId = r.payload.user_id;
        // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArrayDeclaration: speed only: a longer list reads more users, each looked up by id.
        return row !== undefined && r.payload.role === 'host' && userId !== undefined && userId !== row.host_user_id ? [userId] : [];
      }),
    ),
  ];
  const people = new Map<string, HostPerson>(
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration: PostgreSQL only: an empty `in ()`, which SQLite answers with no rows.
    others.length === 0
      ? []
      : (await db.selectFrom('users').select(['id', 'email', 'name', 'timezone', 'reminders']).where('id', 'in', others).execute()).map(
          (u) => [u.id, u],
        ),
  );
  // Stryker disable next-line ConditionalExpression: equivalent: no booking is found by a null uid.
  return new Map(queued.map((r) => [r.id, planOne(r.uid === null ? undefined : rows.get(r.uid), r.payload, people, nowMs)]));
}

/** What to do with one reminder, given its booking as it is now (undefined: gone). */
function planOne(
  row: RemindedRow | undefined,
  queued: ReminderPayload,
  people: ReadonlyMap<string, HostPerson>,
  nowMs: number,
): ReminderPlan {
  if (row === undefined || row.status !== 'confirmed' || row.host_reminders === 0) return { kind: 'drop' };
  const rule = ruleNow(storedReminders(row.reminders_json), queued.rule, queued.role);
  if (rule === undefined) return { kind: 'drop' };
  const [startMs, endMs] = [Date.parse(row.start_at), Date.parse(row.end_at)];
  const dueMs = reminderMoment(rule, { startMs, endMs });
  // Queued for another time: the booking moved by a write that did not requeue it (none should); its own row is queued.
  if (toTimestamp(dueMs) !== queued.due_at) return { kind: 'drop' };
  // Stryker disable next-line StringLiteral: equivalent: toBooking only tells 'list' apart (no responses).
  const booking = toBooking(row, 'single');
  const recipient = recipientOf(row, booking, queued, people);
  if (recipient === undefined) return { kind: 'drop' };
  if (reminderVerdict({ dueMs, relativeTo: rule.relative_to, startMs }, nowMs) === 'too_late') return { kind: 'expired' };
  const what = { minutes: rule.minutes, relative_to: rule.relative_to, text: rule.text };
  if (rule.via === 'webhook') {
    return {
      kind: 'webhook',
      bookingUid: booking.uid,
      payload: { ...booking, reminder: { to: queued.role, recipient, ...what, due_at: queued.due_at } },
    };
  }
  const common = bookingMailPayload(booking, { name: row.host_name, email: row.host_email }, row.event_type_name);
  return {
    kind: 'mail',
    recipient: recipient.email,
    bookingUid: booking.uid,
    endAt: booking.end_at,
    payload: { ...common, role: queued.role, timezone: recipient.timezone, reminder: what },
  };
}

/**
 * Whom a reminder reaches now: the attendee, unless their mail is off (the
 * workspace, the type, or the series' `notify_invitee`); a host, as they are
 * now, while they still host the booking.
 */
function recipientOf(
  row: RemindedRow,
  booking: Booking,
  queued: ReminderPayload,
  people: ReadonlyMap<string, HostPerson>,
): Person | undefined {
  if (queued.role === 'attendee') {
    const silenced = attendeeSilenced(row);
    const attendee = booking.attendees[0];
    return silenced || attendee === undefined ? undefined : { email: attendee.email, name: attendee.name, timezone: attendee.timezone };
  }
  const userId = queued.user_id ?? row.host_user_id;
  if (userId === row.host_user_id) return { email: row.host_email, name: row.host_name, timezone: row.host_timezone };
  // Another host of the booking, while they still host it and have not switched their reminders off.
  const other = booking.hosts.some((h) => h.user_id === userId) ? people.get(userId) : undefined;
  return other === undefined || other.reminders === 0 ? undefined : { email: other.email, name: other.name, timezone: other.timezone };
}

/** What to do with each reminder of a batch, or the error that kept the batch's bookings from being read. */
export type ReminderPlans = Map<string, ReminderPlan> | Error;

/** Plans the batch's reminders with one read of their bookings; a read that fails fails each reminder's send, to be retried. */
export async function reminderPlans(
  deps: { readonly store: Store; readonly clock: Clock },
  batch: readonly ClaimedMail[],
): Promise<ReminderPlans> {
  const reminders = batch.filter((n) => n.kind === REMINDER_KIND);
  // Stryker disable next-line ConditionalExpression: speed only: planning no reminders reads nothing either.
  if (reminders.length === 0) return new Map();
  try {
    return await planReminders(deps.store.db, reminders, deps.clock.now());
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A webhook reminder: its `booking.reminder` event, recorded with the row marked sent, once. */
export async function recordReminderEvent(
  deps: { readonly store: Store; readonly clock: Clock; readonly ids: IdGenerator },
  id: string,
  bookingUid: string,
  payload: ReminderEventPayload,
): Promise<void> {
  await deps.store.db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('notifications')
      .set({ status: 'sent', sent_at: toTimestamp(deps.clock.now()), attempts: sql`attempts + 1` })
      .where('id', '=', id)
      .where('status', '=', PENDING_MAIL)
      .executeTakeFirst();
    // Stryker disable next-line ConditionalExpression: the row is this dispatcher's by its claim; the check guards a row a reschedule deleted meanwhile.
    if (Number(marked.numUpdatedRows) === 1) await recordEvent(trx, deps, 'booking.reminder', bookingUid, payload);
  });
}
