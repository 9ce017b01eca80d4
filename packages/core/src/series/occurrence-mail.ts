import { type BookingChange, bookingMail, type MailHost } from '../bookings/booking-mail.js';
import type { Booking } from '../bookings/booking-view.js';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { attendeeMailOn, type BookingNotificationKind, recordNotifications } from '../outbox/record-notification.js';
import type { ReminderRule } from '../reminders/reminder-rules.js';
import type { ReminderSettings } from '../reminders/schedule-reminders.js';
import type { Executor } from '../storage/store.js';

/**
 * Whether, and as whom, a series action tells the attendee about the
 * occurrences it changes: read once an action (`notify_invitee` and the
 * `attendee_mail` switches), and again by the dispatcher when each mail is
 * sent (`notify_invitee`).
 */
export interface OccurrenceMail {
  readonly on: boolean;
  readonly eventTypeName: string;
  readonly host: MailHost;
  /** What its occurrences' reminders and invite alarms follow (docs/reminders.md), read once an action. */
  readonly reminders: ReminderSettings;
}

/** The attendee-mail decision of a series as it now is, for the occurrences an action is about to change. */
export async function occurrenceMailOf(
  db: Executor,
  series: { readonly notify_invitee: number; readonly event_type_id: string },
  eventType: { readonly name: string; readonly reminders: readonly ReminderRule[] },
  host: MailHost & { readonly reminders: boolean },
): Promise<OccurrenceMail> {
  const on = series.notify_invitee === 1 && (await attendeeMailOn(db, series.event_type_id));
  const reminders = { rules: eventType.reminders, hostOn: host.reminders, attendeeSilenced: !on, hostEmail: host.email };
  return { on, eventTypeName: eventType.name, host, reminders };
}

/**
 * Queues the attendee's booking mail about one occurrence a series action
 * booked, canceled or changed, in that step's transaction (docs/mail.md,
 * "What each series action sends"). Each occurrence is a booking with its
 * own UID, so each goes in a mail of its own with one calendar object: that
 * is what lands every occurrence, and every later change to it, in the
 * attendee's calendar. The host gets none: the host's calendar is written
 * directly (docs/calendars.md).
 */
export async function mailOccurrence(
  trx: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  mail: OccurrenceMail,
  kind: BookingNotificationKind,
  booking: Booking,
  change: Pick<BookingChange, 'reason' | 'changed'> = {},
): Promise<void> {
  if (!mail.on) return;
  const queued = await bookingMail(trx, kind, booking, {
    ...change,
    eventType: { name: mail.eventTypeName, rules: mail.reminders.rules, hostOn: mail.reminders.hostOn },
    host: mail.host,
    attendeeMail: true,
    attendeeOnly: true,
  });
  await recordNotifications(trx, deps, queued);
}
