import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { runPrepared } from '../storage/prepared-query.js';
import type { BookingStatus, NotificationsTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/**
 * The mail the service sends (docs/mail.md): series mail (a confirmation on
 * create, one notice on end), booking mail (created, rescheduled, canceled,
 * to the attendee and to the host; changed, to the attendee of an occurrence
 * a series gave another host or link; requested, confirmed and declined, for
 * a type that requires confirmation), and the notice to a webhook's owner
 * that it was paused.
 */
export type NotificationKind = SeriesNotificationKind | BookingNotificationKind | 'booking_reminder' | 'webhook_paused';

export type SeriesNotificationKind = 'series_confirmation' | 'series_ended';
export type BookingNotificationKind =
  | 'booking_created'
  | 'booking_rescheduled'
  | 'booking_canceled'
  | 'booking_changed'
  | 'booking_requested'
  | 'booking_confirmed'
  | 'booking_declined';

/**
 * One occurrence a series mail lists. Its invite (or cancellation) goes in a
 * booking mail of its own (docs/mail.md "One calendar object per mail").
 */
export interface MailOccurrence {
  readonly start_at: string;
  readonly end_at: string;
  /** The occurrence's booking and its version; kept for the record, no longer written into the series mail. */
  readonly uid?: string;
  readonly sequence?: number;
  /** Where the occurrence meets: the series' fixed link, else the occurrence's own conference link. */
  readonly location_url?: string | null;
}

/** What a series notification says, kept as data so the mail is written when it is sent. */
export interface SeriesNotificationPayload {
  readonly attendee_name: string;
  readonly event_type_name: string;
  readonly host_name: string;
  readonly timezone: string;
  /** The occurrences the mail lists: booked (confirmation) or canceled (end). */
  readonly occurrences: readonly MailOccurrence[];
  /** Dates the confirmation reports as not booked. */
  readonly skipped?: readonly { date: string; start_at: string }[];
  readonly location_url?: string | null;
  /** The invite's ORGANIZER and ATTENDEE; absent on mail queued before invites existed. */
  readonly host_email?: string;
  readonly attendee_email?: string;
}

/** A person a booking mail names. */
export interface MailPerson {
  readonly email: string;
  readonly name?: string | undefined;
}

/** What a booking notification says: the booking as it is after the change, for one recipient. */
export interface BookingNotificationPayload {
  /** Whom the mail is for: the attendee (the booker) or the host. */
  readonly role: 'attendee' | 'host';
  /** The recipient's time zone: the mail's times are written in it. */
  readonly timezone: string;
  readonly title: string;
  readonly event_type_name: string;
  readonly host: MailPerson & { readonly name: string };
  readonly attendee: MailPerson & { readonly name: string };
  readonly guests: readonly MailPerson[];
  readonly start_at: string;
  readonly end_at: string;
  /** The booking's `version`: the invite's SEQUENCE, so a calendar applies a later change over an earlier one. */
  readonly sequence: number;
  readonly status: BookingStatus;
  readonly location: { readonly type: string; readonly url: string | null; readonly value: string | null };
  /** A reschedule: where the meeting was before. */
  readonly previous?: { readonly start_at: string; readonly end_at: string };
  /** A cancel's or reschedule's reason, when one was given. */
  readonly reason?: string | null;
  /** A `booking_changed` mail: what the series changed, the host or the link. */
  readonly changed?: 'host' | 'location';
  /** Minutes before the start at which the invite's alarms ring for this recipient (VALARM); absent: none. */
  readonly alarms?: readonly number[];
}

/**
 * A reminder mail's payload: the booking mail's, and the rule it answers.
 * Its row is queued with less (reminders/schedule-reminders.ts); this is
 * written when it is sent, from the booking as it is then.
 */
export interface ReminderMailPayload extends BookingNotificationPayload {
  readonly reminder: { readonly minutes: number; readonly relative_to: 'start' | 'end'; readonly text: string | null };
}

/** What the notice of an auto-paused webhook says (written by the webhook delivery). */
export interface WebhookPausedPayload {
  readonly webhook_id: string;
  readonly url: string;
  readonly description: string | null;
  readonly failing_since: string;
  readonly consecutive_failures: number;
}

/** Every kind with the payload it carries. */
export interface NotificationPayloads {
  series_confirmation: SeriesNotificationPayload;
  series_ended: SeriesNotificationPayload;
  booking_created: BookingNotificationPayload;
  booking_rescheduled: BookingNotificationPayload;
  booking_canceled: BookingNotificationPayload;
  booking_changed: BookingNotificationPayload;
  booking_requested: BookingNotificationPayload;
  booking_confirmed: BookingNotificationPayload;
  booking_declined: BookingNotificationPayload;
  booking_reminder: ReminderMailPayload;
  webhook_paused: WebhookPausedPayload;
}

export type NotificationPayload = NotificationPayloads[NotificationKind];

/** One notification to queue: its kind with that kind's payload, whom it goes to, and what it is about. */
export type NewNotification = {
  [K in NotificationKind]: {
    readonly kind: K;
    readonly recipient: string;
    readonly payload: NotificationPayloads[K];
    /** A series mail's series: the dispatcher holds the series while it is sent. */
    readonly seriesUid?: string | null;
    /** A booking mail's booking. */
    readonly bookingUid?: string | null;
  };
}[NotificationKind];

/**
 * Queues a mail inside the writing transaction: it exists exactly when the
 * change it reports committed, and a dispatcher sends it afterwards.
 */
export async function recordNotification(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  notification: NewNotification,
): Promise<void> {
  await recordNotifications(trx, deps, [notification]);
}

/** The columns a queued mail is written with, in the order `notificationRows` gives its values. */
export const NOTIFICATION_COLUMNS = [
  'id',
  'kind',
  'series_uid',
  'booking_uid',
  'recipient',
  'payload_json',
  'status',
  'attempts',
  'next_attempt_at',
  'created_at',
  'sent_at',
] as const;

export type NotificationRow = Omit<Pick<NotificationsTable, (typeof NOTIFICATION_COLUMNS)[number]>, 'booking_uid'> & {
  booking_uid: string | null;
};

/**
 * Mail still to be sent, as a literal for the statements that look it up: a
 * parameter would keep PostgreSQL's generic plan off the partial index
 * `notifications_pending`, which holds only these rows.
 */
export const PENDING_MAIL = sql.lit('pending');

/** Mails as the rows that queue them: pending, due now. */
export function notificationRows(deps: { clock: Clock; ids: IdGenerator }, notifications: readonly NewNotification[]): NotificationRow[] {
  const now = toTimestamp(deps.clock.now());
  return notifications.map((notification) => ({
    id: deps.ids.uuid(),
    kind: notification.kind,
    series_uid: notification.seriesUid ?? null,
    booking_uid: notification.bookingUid ?? null,
    recipient: notification.recipient,
    payload_json: JSON.stringify(notification.payload),
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    sent_at: null,
  }));
}

/** Queues several mails about one change with one statement (a booking's host and attendee mail). */
export async function recordNotifications(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  notifications: readonly NewNotification[],
): Promise<void> {
  await insertNotificationRows(trx, notificationRows(deps, notifications));
}

/** Writes queued mails' rows (notificationRows) in the caller's transaction, with one statement. */
export async function insertNotificationRows(trx: Executor, rows: readonly NotificationRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('notifications')
    .values([...rows])
    .execute();
}

/**
 * Whether mail may go to the attendees of this event type: neither the
 * workspace (`attendee_mail`) nor the event type turned it off. Read when
 * the change is written, so it decides what is queued (docs/mail.md); the
 * host's mail does not depend on it.
 */
export async function attendeeMailOn(trx: Executor, eventTypeId: string): Promise<boolean> {
  // Both switches in one statement: this is read in every booking write's transaction.
  const [row] = await runPrepared(trx, attendeeMailSwitches, [eventTypeId]);
  // A missing event type or organization row (no workspace loaded yet) has nothing turned off.
  return row?.event_type !== 0 && row?.organization !== 0;
}

const attendeeMailSwitches = (db: Executor, eventTypeId: string) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('event_types').select('attendee_mail').where('id', '=', eventTypeId).as('event_type'),
    eb.selectFrom('organization').select('attendee_mail').where('id', '=', 1).as('organization'),
  ]);
