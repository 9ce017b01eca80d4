import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { insertNotificationRows, type NotificationRow, PENDING_MAIL } from '../outbox/record-notification.js';
import type { BookingsTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { type ReminderRecipient, type ReminderRule, remindersDue, storedReminders } from './reminder-rules.js';

// A booking's reminders are rows of the mail queue (docs/reminders.md), due
// at their moments: the dispatcher claims rows by `next_attempt_at` through
// the partial index of pending mail, so a pass costs what is due, not what
// is booked, and its leases make several processes send each once. A
// webhook rule's row is claimed the same way and becomes a `booking.reminder`
// event instead of a mail.

export const REMINDER_KIND = 'booking_reminder';

/** What a reminder row says; the booking itself is read when it is sent, so the reminder tells it as it is then. */
export interface ReminderPayload {
  /** The rule that owes it, as it was when queued: the dispatcher drops it if the type no longer has that rule. */
  readonly rule: ReminderRule;
  readonly role: ReminderRecipient;
  /** A host's reminder: which host (a collective booking's every host gets one). */
  readonly user_id?: string;
  readonly due_at: string;
}

/** A booking as its reminders need it: its row's columns. */
export type RemindedBooking = Pick<
  BookingsTable,
  'uid' | 'status' | 'start_at' | 'end_at' | 'event_type_id' | 'host_user_id' | 'attendee_email' | 'co_hosts_json' | 'series_uid'
>;

/** What decides a booking's reminders besides its times, read in one statement. */
export interface ReminderSettings {
  readonly rules: readonly ReminderRule[];
  /** The host's switch (people `reminders`): off, nobody is reminded. */
  readonly hostOn: boolean;
  /** The attendee hears nothing: attendee mail is off for the workspace or the type, or the series said `notify_invitee: false`. */
  readonly attendeeSilenced: boolean;
  /** The host's address now; a host's reminder is sent to the address they have when it is due. */
  readonly hostEmail: string;
}

/** Reads what a booking's reminders depend on, now: its type's rules, its host's switch, whether its attendee is silenced. */
export async function reminderSettings(
  db: Executor,
  booking: Pick<RemindedBooking, 'event_type_id' | 'host_user_id' | 'series_uid'>,
): Promise<ReminderSettings> {
  // Stryker disable next-line StringLiteral: equivalent: no series has any uid but a UUID.
  const seriesUid = booking.series_uid ?? '';
  const row = await db
    .selectFrom('event_types')
    .innerJoin('users', (join) => join.on('users.id', '=', booking.host_user_id))
    .select(['event_types.reminders_json', 'event_types.attendee_mail', 'users.reminders', 'users.email'])
    .select((eb) => [
      eb.selectFrom('organization').select('attendee_mail').where('id', '=', 1).as('organization_mail'),
      eb.selectFrom('series').select('notify_invitee').where('uid', '=', seriesUid).as('notify_invitee'),
    ])
    .where('event_types.id', '=', booking.event_type_id)
    .executeTakeFirst();
  if (row === undefined) return { rules: [], hostOn: false, attendeeSilenced: true, hostEmail: '' };
  return {
    rules: storedReminders(row.reminders_json),
    hostOn: row.reminders !== 0,
    attendeeSilenced: attendeeSilenced(row),
    hostEmail: row.email,
  };
}

/**
 * Whether a booking's attendee is reminded of nothing, by mail or webhook:
 * attendee mail is off for its type or the workspace, or its series said
 * `notify_invitee: false`. One rule for what is queued and what is sent.
 */
export function attendeeSilenced(switches: {
  readonly attendee_mail: number;
  readonly organization_mail: number | null;
  readonly notify_invitee: number | null;
}): boolean {
  return switches.attendee_mail === 0 || switches.organization_mail === 0 || switches.notify_invitee === 0;
}

/** Drops a booking's reminders still to be sent; one sent is kept as sent. */
export async function clearReminders(trx: Executor, bookingUid: string): Promise<void> {
  await trx
    .deleteFrom('notifications')
    .where('status', '=', PENDING_MAIL)
    .where('booking_uid', '=', bookingUid)
    .where('kind', '=', REMINDER_KIND)
    .execute();
}

/**
 * Queues the reminders a booking is owed as of now, in the transaction that
 * writes it: none unless it is confirmed, its host's switch is on and its
 * type has rules; a moment already past is owed nothing.
 */
export async function queueReminders(trx: Executor, deps: { clock: Clock; ids: IdGenerator }, booking: RemindedBooking): Promise<void> {
  // Speed only: a cancel or a request is owed none (reminderRows says so too), and needs no read.
  // Stryker disable next-line ConditionalExpression,BlockStatement,EqualityOperator,StringLiteral: equivalent, as said.
  if (booking.status !== 'confirmed') return;
  const settings = await reminderSettings(trx, booking);
  await insertNotificationRows(trx, reminderRows(deps, booking, settings));
}

/** A booking's reminders as of now, after a change: those pending dropped, those it is owed queued (a move moves them, a cancel ends them). */
export async function rescheduleReminders(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  booking: RemindedBooking,
): Promise<void> {
  await clearReminders(trx, booking.uid);
  await queueReminders(trx, deps, booking);
}

/** The columns a change must touch to change a booking's reminders. */
const REMINDER_INPUTS = ['status', 'start_at', 'end_at', 'host_user_id', 'co_hosts_json', 'attendee_email'] as const;

/** Whether a change of these columns can change the booking's reminders. */
export function changesReminders(change: Partial<Record<string, unknown>>): boolean {
  return REMINDER_INPUTS.some((column) => change[column] !== undefined);
}

/**
 * The rows of a booking's reminders: one per rule and recipient (each host of
 * a collective booking), due at its moment; none for a booking that is not
 * confirmed (a request is reminded once the host confirms it).
 */
export function reminderRows(
  deps: { clock: Clock; ids: IdGenerator },
  booking: RemindedBooking,
  settings: ReminderSettings,
): NotificationRow[] {
  // Stryker disable next-line ConditionalExpression: no rules owe nothing either way; the check saves the work.
  if (booking.status !== 'confirmed' || !settings.hostOn || settings.rules.length === 0) return [];
  const nowMs = deps.clock.now();
  const now = toTimestamp(nowMs);
  const times = { startMs: Date.parse(booking.start_at), endMs: Date.parse(booking.end_at) };
  // Stryker disable next-line ArrayDeclaration: equivalent: a set of no recipient and one of a made-up name silence no one alike.
  const silenced = new Set<ReminderRecipient>(settings.attendeeSilenced ? ['attendee'] : []);
  const hosts = [
    { user_id: booking.host_user_id, email: settings.hostEmail },
    ...(JSON.parse(booking.co_hosts_json) as { user_id: string; email: string }[]),
  ];
  return remindersDue(settings.rules, times, nowMs, silenced).flatMap((due) => {
    const rule = settings.rules[due.rule]!;
    const recipients =
      due.recipient === 'attendee'
        ? [{ email: booking.attendee_email, user_id: undefined }]
        : hosts.map((h) => ({ email: h.email, user_id: h.user_id }));
    return recipients.map((to) => {
      const payload: ReminderPayload = { rule, role: due.recipient, user_id: to.user_id, due_at: toTimestamp(due.dueMs) };
      return {
        id: deps.ids.uuid(),
        kind: REMINDER_KIND,
        series_uid: null,
        booking_uid: booking.uid,
        recipient: to.email,
        payload_json: JSON.stringify(payload),
        status: 'pending',
        attempts: 0,
        next_attempt_at: toTimestamp(due.dueMs),
        created_at: now,
        sent_at: null,
      };
    });
  });
}
