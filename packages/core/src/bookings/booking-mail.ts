import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import {
  attendeeMailOn,
  type BookingNotificationKind,
  type BookingNotificationPayload,
  type NewNotification,
  recordNotifications,
} from '../outbox/record-notification.js';
import { alarmMinutes, type ReminderRecipient, type ReminderRule, storedReminders } from '../reminders/reminder-rules.js';
import type { Executor } from '../storage/store.js';
import type { Booking } from './booking-view.js';

/** The host as a booking mail names them; read from the user when the caller does not have it at hand. */
export interface MailHost {
  readonly name: string;
  readonly email: string;
  readonly timezone: string;
}

/** What a change adds to the booking it reports: a move's old time, a reason. */
export interface BookingChange {
  readonly previous?: { readonly start_at: string; readonly end_at: string };
  readonly reason?: string | null | undefined;
  /** A `booking_changed` mail: what a series changed of the occurrence. */
  readonly changed?: 'host' | 'location' | undefined;
  /** The occurrence's series, for a booking that is one: its `notify_invitee` governs the attendee's mail too. */
  readonly seriesUid?: string | null;
  /** Known already (a create has them): saves reading them again. */
  readonly eventType?: MailEventType;
  readonly host?: MailHost;
  /** Whether the attendee may be mailed (attendeeMailOn), when the caller read it already. */
  readonly attendeeMail?: boolean;
  /** The attendee's mail alone: a series action's mail about an occurrence (series/occurrence-mail.ts). */
  readonly attendeeOnly?: boolean;
}

/** What a booking mail needs of its event type: its name, and for the invites' alarms its reminder rules and the host's switch. */
export interface MailEventType {
  readonly name: string;
  readonly rules: readonly ReminderRule[];
  readonly hostOn: boolean;
}

/**
 * Queues the mail about a booking change in the transaction that makes it
 * (docs/mail.md): one to the host and, unless attendee mail is off (for the
 * workspace, the event type, or the occurrence's series), one to the
 * attendee. Each carries the booking as it now is, so the invite's SEQUENCE
 * is the version this change wrote. Called by the booking endpoints; a
 * series action queues the attendee's alone (series/occurrence-mail.ts).
 */
export async function recordBookingMail(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  kind: BookingNotificationKind,
  booking: Booking,
  change: BookingChange = {},
): Promise<void> {
  await recordNotifications(trx, deps, await bookingMail(trx, kind, booking, change));
}

/** The mails recordBookingMail queues, for a caller that writes them itself (a create, with its booking). */
export async function bookingMail(
  trx: Executor,
  kind: BookingNotificationKind,
  booking: Booking,
  change: BookingChange = {},
): Promise<NewNotification[]> {
  const host = change.host ?? (await hostOf(trx, booking.host.user_id));
  const type = change.eventType ?? (await typeOf(trx, booking));
  const attendee = booking.attendees[0];
  const common = bookingMailPayload(booking, host, type.name, change);
  // Each invite rings when its recipient's reminders are due (docs/reminders.md); a host who turned reminders off gets none, nor do their attendees.
  const alarms = (role: ReminderRecipient) => {
    const minutes = type.hostOn ? alarmMinutes(type.rules, role) : [];
    return minutes.length > 0 ? { alarms: minutes } : {};
  };
  const toHost = (recipient: { email: string; timezone: string }): NewNotification => ({
    kind,
    recipient: recipient.email,
    bookingUid: booking.uid,
    payload: { ...common, role: 'host', timezone: recipient.timezone, ...alarms('host') },
  });
  const hostMail = change.attendeeOnly ? [] : [host, ...(await coHostsToMail(trx, booking, host))].map(toHost);
  const mailAttendee =
    attendee !== undefined && (change.attendeeMail ?? (await attendeeMailAllowed(trx, booking.event_type_id, change.seriesUid ?? null)));
  if (!mailAttendee) return hostMail;
  return [
    ...hostMail,
    {
      kind,
      recipient: attendee.email,
      bookingUid: booking.uid,
      payload: { ...common, role: 'attendee', timezone: attendee.timezone, ...alarms('attendee') },
    },
  ];
}

/**
 * The co-hosts (a collective booking's other hosts, round robin's fixed
 * hosts), each to get the host's mail in their own zone: everyone who meets
 * the attendee hears of every change. The booking names them as they were
 * booked; their zone is read now (the host's when one is gone).
 */
async function coHostsToMail(trx: Executor, booking: Booking, host: MailHost): Promise<{ email: string; timezone: string }[]> {
  const others = booking.hosts.slice(1);
  // Stryker disable next-line ConditionalExpression: PostgreSQL only: an empty `in ()`, which SQLite answers with no rows.
  if (others.length === 0) return [];
  const users = await trx
    .selectFrom('users')
    .select(['id', 'timezone'])
    .where(
      'id',
      'in',
      others.map((h) => h.user_id),
    )
    .execute();
  const zones = new Map(users.map((u) => [u.id, u.timezone]));
  return others.map((h) => ({ email: h.email, timezone: zones.get(h.user_id) ?? host.timezone }));
}

/** What every mail about a booking says, whoever it is for: the booking as it now is, and what the change adds. */
export function bookingMailPayload(
  booking: Booking,
  host: { readonly name: string; readonly email: string },
  eventTypeName: string,
  change: Pick<BookingChange, 'previous' | 'reason' | 'changed'> = {},
): Omit<BookingNotificationPayload, 'role' | 'timezone'> {
  const attendee = booking.attendees[0];
  return {
    title: booking.title,
    event_type_name: eventTypeName,
    host: { email: host.email, name: host.name },
    attendee: { email: attendee?.email ?? '', name: attendee?.name ?? '' },
    guests: booking.guests,
    start_at: booking.start_at,
    end_at: booking.end_at,
    sequence: booking.version,
    status: booking.status,
    location: booking.location,
    // What the change does not say stays out of the stored payload: JSON leaves out what is undefined.
    previous: change.previous,
    reason: change.reason,
    changed: change.changed,
  };
}

/** The type's name, its reminder rules and the host's switch, in one read. */
async function typeOf(trx: Executor, booking: Booking): Promise<MailEventType> {
  const row = await trx
    .selectFrom('event_types')
    .innerJoin('users', (join) => join.on('users.id', '=', booking.host.user_id))
    .select(['event_types.name', 'event_types.reminders_json', 'users.reminders'])
    .where('event_types.id', '=', booking.event_type_id)
    .executeTakeFirstOrThrow();
  return { name: row.name, rules: storedReminders(row.reminders_json), hostOn: row.reminders !== 0 };
}

async function hostOf(trx: Executor, userId: string): Promise<MailHost> {
  return trx.selectFrom('users').select(['name', 'email', 'timezone']).where('id', '=', userId).executeTakeFirstOrThrow();
}

async function attendeeMailAllowed(trx: Executor, eventTypeId: string, seriesUid: string | null): Promise<boolean> {
  // Stryker disable next-line ConditionalExpression: a booking outside a series (null) finds no series row either; the guard saves the read
  if (seriesUid !== null) {
    const series = await trx.selectFrom('series').select('notify_invitee').where('uid', '=', seriesUid).executeTakeFirst();
    // Stryker disable next-line OptionalChaining: an occurrence's series is never deleted (no writer removes a series row), so it is always found
    if (series?.notify_invitee === 0) return false;
  }
  return attendeeMailOn(trx, eventTypeId);
}
