import { DateTime } from 'luxon';
import type {
  BookingNotificationKind,
  BookingNotificationPayload,
  NotificationKind,
  NotificationPayloads,
  ReminderMailPayload,
  SeriesNotificationKind,
  SeriesNotificationPayload,
  WebhookPausedPayload,
} from '../outbox/record-notification.js';
import { type InviteEvent, inviteCalendar, inviteUid } from './invite-ics.js';
import type { Mail, MailCalendar } from './mailer.js';
import { zoneAbbreviation } from './zone-abbreviation.js';

/** A queued notification, as the dispatcher read it. */
export type StoredNotification = {
  [K in NotificationKind]: {
    readonly id: string;
    readonly kind: K;
    readonly recipient: string;
    readonly seriesUid: string | null;
    readonly bookingUid: string | null;
    /** When the change it reports was written: the invite's DTSTAMP, the same on every attempt. */
    readonly createdAt: string;
    readonly payload: NotificationPayloads[K];
    /** The attendee's manage link (docs/booking-page.md), for their mail about a booking they can still move or cancel. */
    readonly manageUrl?: string | undefined;
  };
}[NotificationKind];

// English names whatever the server's locale, so a mail reads the same from every host.
// Stryker disable next-line ObjectLiteral: every instant here ends in Z, which fixes it whatever zone it is read in; setZone follows.
const local = (instant: string, zone: string) => DateTime.fromISO(instant, { zone: 'utc' }).setZone(zone).setLocale('en-GB');
const DAY_AND_TIME = 'cccc d LLLL yyyy, HH:mm';

/** "(CET)": the zone's short name at that time, read once per zone (zone-abbreviation.ts), not through luxon's `ZZZZ`. */
// Stryker disable next-line StringLiteral: zoneName is null only for an invalid DateTime, and every instant and zone written here is valid.
const named = (time: DateTime) => `(${zoneAbbreviation(time.toMillis(), time.zoneName ?? 'UTC')})`;

function when(instant: string, zone: string): string {
  const time = local(instant, zone);
  return `${time.toFormat(DAY_AND_TIME)} ${named(time)}`;
}

/** A meeting's time: "Monday 2 March 2026, 10:00–10:30 (CET)", or both ends in full when the date or the offset differs. */
function span(start: string, end: string, zone: string): string {
  const [from, to] = [local(start, zone), local(end, zone)];
  // Both ends are in one zone, so their calendar fields compare as they are (luxon's hasSame would re-zone `to` first, at a cost).
  const sameDay = from.day === to.day && from.month === to.month && from.year === to.year;
  if (sameDay && from.offset === to.offset) return `${from.toFormat(DAY_AND_TIME)}–${to.toFormat('HH:mm')} ${named(to)}`;
  return `${from.toFormat(DAY_AND_TIME)} ${named(from)} to ${to.toFormat(DAY_AND_TIME)} ${named(to)}`;
}

/**
 * A mail's body as sections: each is some lines, then perhaps a list. The
 * plain text and the HTML part are both written from it, so they always
 * say the same.
 */
interface Section {
  readonly lines: readonly string[];
  readonly items?: readonly string[];
}

function asText(sections: readonly Section[]): string {
  return sections.map((s) => [...s.lines, ...(s.items ?? []).map((i) => `  - ${i}`)].join('\n')).join('\n\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escaped, with links made clickable (a link ends at white space; escaping leaves none in it). */
function htmlLine(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

function asHtml(sections: readonly Section[]): string {
  const body = sections
    .map((s) => {
      // Stryker disable next-line EqualityOperator,StringLiteral: every section is written with a line, so `> 0` always holds and '' is never written.
      const lines = s.lines.length > 0 ? `<p>${s.lines.map(htmlLine).join('<br>\n')}</p>` : '';
      const items = s.items && s.items.length > 0 ? `\n<ul>\n${s.items.map((i) => `<li>${htmlLine(i)}</li>`).join('\n')}\n</ul>` : '';
      return lines + items;
    })
    .join('\n');
  return `<!DOCTYPE html>\n<html><body style="font-family: sans-serif">\n${body}\n</body></html>\n`;
}

/** The mail a queued notification stands for: text and HTML, and for booking and series mail a calendar invite. */
export function composeMail(notification: StoredNotification): Mail {
  const about = {
    id: notification.id,
    to: notification.recipient,
    kind: notification.kind,
    seriesUid: notification.seriesUid,
    bookingUid: notification.bookingUid,
  };
  const written = write(notification);
  return {
    ...about,
    ...(written.replyTo ? { replyTo: written.replyTo } : {}),
    ...(written.fromName ? { fromName: written.fromName } : {}),
    subject: written.subject,
    text: asText(written.sections),
    html: asHtml(written.sections),
    ...(written.calendar ? { calendar: written.calendar } : {}),
  };
}

interface Written {
  readonly subject: string;
  readonly sections: readonly Section[];
  readonly calendar?: MailCalendar | undefined;
  readonly replyTo?: string | undefined;
  /** The person the mail is shown as from: the one `replyTo` reaches. */
  readonly fromName?: string | undefined;
}

function write(n: StoredNotification): Written {
  switch (n.kind) {
    case 'series_confirmation':
    case 'series_ended':
      return seriesMail(n.kind, n.payload);
    case 'booking_created':
    case 'booking_rescheduled':
    case 'booking_canceled':
    case 'booking_changed':
    case 'booking_requested':
    case 'booking_confirmed':
    case 'booking_declined':
      return bookingMail(n.kind, n.payload, n.bookingUid, n.createdAt, n.manageUrl);
    case 'booking_reminder':
      return reminderMail(n.payload, n.manageUrl);
    case 'webhook_paused':
      return webhookPausedMail(n.payload);
  }
}

// Series mail: the words are those series mail always had (docs/api/series.md). It carries no invite:
// RFC 5546 §1.4 keeps one iTIP message to the components of one UID and RFC 6047 §2.4 one iTIP object to
// a mail, and each occurrence is a booking of its own, so each occurrence's invite or cancellation goes
// in its own booking mail (docs/mail.md, "One calendar object per mail").
function seriesMail(kind: SeriesNotificationKind, payload: SeriesNotificationPayload): Written {
  const dates = payload.occurrences.map((o) => when(o.start_at, payload.timezone));
  const greeting: Section = { lines: [`Hello ${payload.attendee_name},`] };
  const meeting = `${payload.event_type_name} with ${payload.host_name}`;
  const replyTo = payload.host_email;
  if (kind === 'series_confirmation') {
    const skipped = (payload.skipped ?? []).map((s) => when(s.start_at, payload.timezone));
    return {
      subject: `Booked: ${meeting}`,
      sections: [
        greeting,
        { lines: [`${meeting} is booked on these dates:`], items: dates },
        ...(skipped.length > 0 ? [{ lines: ['These dates were not free and are not booked:'], items: skipped }] : []),
        ...(payload.location_url ? [{ lines: [`Join at ${payload.location_url}`] }] : []),
      ],
      replyTo,
      fromName: payload.host_name,
    };
  }
  return {
    subject: `Canceled: ${meeting}`,
    sections: [greeting, { lines: [`${meeting} has ended. These meetings are canceled:`], items: dates }],
    replyTo,
    fromName: payload.host_name,
  };
}

function calendarOf(method: 'REQUEST' | 'CANCEL', event: InviteEvent): MailCalendar {
  return { method, content: inviteCalendar(method, event), filename: method === 'CANCEL' ? 'cancel.ics' : 'invite.ics' };
}

function bookingMail(
  kind: BookingNotificationKind,
  p: BookingNotificationPayload,
  bookingUid: string | null,
  createdAt: string,
  manageUrl: string | undefined,
): Written {
  const toAttendee = p.role === 'attendee';
  const recipientName = toAttendee ? p.attendee.name : p.host.name;
  // Each side reads the meeting named by the other.
  const meeting = `${p.event_type_name} with ${toAttendee ? p.host.name : p.attendee.name}`;
  const time = span(p.start_at, p.end_at, p.timezone);
  const where = p.location.url ? `Join at ${p.location.url}` : p.location.value ? `Where: ${p.location.value}` : undefined;
  const details: string[] = [`When: ${time}`];
  if (kind === 'booking_rescheduled' && p.previous) details.push(`Was: ${span(p.previous.start_at, p.previous.end_at, p.timezone)}`);
  if (kind !== 'booking_canceled' && kind !== 'booking_declined' && where) details.push(where);
  if (p.guests.length > 0) details.push(`Guests: ${p.guests.map((g) => g.email).join(', ')}`);
  if (p.reason) details.push(`Reason: ${p.reason}`);

  const headline = {
    booking_created: toAttendee
      ? `${meeting} is booked.`
      : `${p.attendee.name} (${p.attendee.email}) booked ${p.event_type_name} with you.`,
    booking_rescheduled: `${meeting} has moved.`,
    booking_canceled: `${meeting} is canceled.`,
    booking_changed: p.changed === 'host' ? `${p.event_type_name} is now with ${p.host.name}.` : `${meeting} has a new place to meet.`,
    booking_requested: toAttendee
      ? `You asked for ${meeting}. The request is awaiting ${p.host.name}'s confirmation; you will hear once it is confirmed or declined.`
      : `${p.attendee.name} (${p.attendee.email}) asks for ${p.event_type_name} with you. Please confirm or decline it before it starts; unanswered, it is declined then.`,
    booking_confirmed: toAttendee ? `${meeting} is confirmed.` : `You confirmed ${meeting}.`,
    booking_declined: toAttendee ? `${meeting} was declined.` : `${meeting} is declined.`,
  }[kind];
  const subject = {
    booking_created: toAttendee ? `Booked: ${meeting}` : `New booking: ${meeting}`,
    booking_rescheduled: `Moved: ${meeting}`,
    booking_canceled: `Canceled: ${meeting}`,
    booking_changed: `Changed: ${meeting}`,
    booking_requested: toAttendee ? `Requested: ${meeting}` : `Please confirm: ${meeting}`,
    booking_confirmed: `Confirmed: ${meeting}`,
    booking_declined: `Declined: ${meeting}`,
  }[kind];
  const canceled = kind === 'booking_canceled';
  // A request carries no invite until it is confirmed, and a declined one never had one to take back.
  const unconfirmed = kind === 'booking_requested' || kind === 'booking_declined';
  const calendar =
    bookingUid === null || unconfirmed
      ? undefined
      : calendarOf(canceled ? 'CANCEL' : 'REQUEST', {
          uid: inviteUid(bookingUid),
          sequence: p.sequence,
          start: p.start_at,
          end: p.end_at,
          stamp: createdAt,
          summary: p.title,
          location: p.location.url ?? p.location.value,
          url: p.location.url,
          status: canceled ? 'CANCELLED' : 'CONFIRMED',
          alarms: canceled ? undefined : p.alarms,
          organizer: { email: p.host.email, name: p.host.name },
          attendees: [
            { email: p.attendee.email, name: p.attendee.name, partstat: 'ACCEPTED' },
            ...p.guests.map((g) => ({ email: g.email, name: g.name, partstat: 'NEEDS-ACTION' as const })),
          ],
        });
  return {
    subject,
    sections: [
      { lines: [`Hello ${recipientName},`] },
      { lines: [headline] },
      { lines: details },
      ...(unconfirmed
        ? []
        : [
            {
              lines: [
                canceled
                  ? 'Open the attached cancellation to remove it from your calendar.'
                  : 'Open the attached invitation to add it to your calendar.',
              ],
            },
          ]),
      ...(manageUrl ? [{ lines: [`To reschedule or cancel: ${manageUrl}`] }] : []),
    ],
    calendar,
    replyTo: toAttendee ? p.host.email : p.attendee.email,
    fromName: toAttendee ? p.host.name : p.attendee.name,
  };
}

/** How far ahead a reminder is: "in 1 hour", "in 1 day and 2 hours", "in 30 minutes". */
export function aheadText(minutes: number): string {
  const parts: [number, string][] = [
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  return said.length === 0 ? 'now' : `in ${said.join(' and ')}`;
}

/**
 * A reminder (docs/reminders.md): the meeting's time in the recipient's zone,
 * where to join, the host's note, and for the attendee the manage link. It
 * carries no invite: the one they were sent is in their calendar already.
 */
function reminderMail(p: ReminderMailPayload, manageUrl: string | undefined): Written {
  const toAttendee = p.role === 'attendee';
  const recipientName = toAttendee ? p.attendee.name : p.host.name;
  const meeting = `${p.event_type_name} with ${toAttendee ? p.host.name : p.attendee.name}`;
  const followUp = p.reminder.relative_to === 'end';
  const where = p.location.url ? `Join at ${p.location.url}` : p.location.value ? `Where: ${p.location.value}` : undefined;
  const details = [`When: ${span(p.start_at, p.end_at, p.timezone)}`, ...(where && !followUp ? [where] : [])];
  return {
    subject: followUp ? `Following up: ${meeting}` : `Reminder: ${meeting} ${aheadText(p.reminder.minutes)}`,
    sections: [
      { lines: [`Hello ${recipientName},`] },
      { lines: [followUp ? `Thank you for ${meeting}.` : `${meeting} starts ${aheadText(p.reminder.minutes)}.`] },
      { lines: details },
      ...(p.reminder.text ? [{ lines: [p.reminder.text] }] : []),
      ...(manageUrl && !followUp ? [{ lines: [`To reschedule or cancel: ${manageUrl}`] }] : []),
    ],
    replyTo: toAttendee ? p.host.email : p.attendee.email,
    fromName: toAttendee ? p.host.name : p.attendee.name,
  };
}

function webhookPausedMail(p: WebhookPausedPayload): Written {
  const named = p.description ? `${p.url} (${p.description})` : p.url;
  return {
    subject: `Webhook paused: ${p.url}`,
    sections: [
      { lines: ['Hello,'] },
      {
        lines: [
          `Your webhook ${named} was paused: its last ${p.consecutive_failures} deliveries failed, the first of them on ${when(p.failing_since, 'UTC')}.`,
          'While it is paused, no events are queued for it: they are missed.',
        ],
      },
      {
        lines: ['Once the receiver answers again, resume the webhook:'],
        items: [
          `schedule webhooks update ${p.webhook_id} --status active`,
          `or PATCH /v1/webhooks/${p.webhook_id} with {"status": "active"}`,
        ],
      },
      {
        lines: [
          'Resuming delivers new events only. To recover the bookings that changed meanwhile, run the catch-up sweep from when the failures began:',
        ],
        items: [`GET /v1/bookings?updated_since=${p.failing_since}&sort=updated_at_asc`],
      },
    ],
  };
}
