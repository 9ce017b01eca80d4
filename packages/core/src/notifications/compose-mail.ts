import { DateTime } from 'luxon';
import type { NotificationKind, NotificationPayload } from '../outbox/record-notification.js';
import type { Mail } from './mailer.js';

// English names whatever the server's locale, so a mail reads the same from every host.
function when(startAt: string, zone: string): string {
  return DateTime.fromISO(startAt, { zone: 'utc' }).setZone(zone).setLocale('en-GB').toFormat("cccc d LLLL yyyy, HH:mm '('ZZZZ')'");
}

/** Writes the mail a queued notification stands for, in the series' time zone. */
export function composeMail(kind: NotificationKind, to: string, seriesUid: string | null, payload: NotificationPayload): Mail {
  const lines = payload.occurrences.map((o) => `  - ${when(o.start_at, payload.timezone)}`);
  switch (kind) {
    case 'series_confirmation': {
      const skipped = (payload.skipped ?? []).map((s) => `  - ${when(s.start_at, payload.timezone)}`);
      const text = [
        `Hello ${payload.attendee_name},`,
        '',
        `${payload.event_type_name} with ${payload.host_name} is booked on these dates:`,
        ...lines,
        ...(skipped.length > 0 ? ['', 'These dates were not free and are not booked:', ...skipped] : []),
        ...(payload.location_url ? ['', `Join at ${payload.location_url}`] : []),
      ].join('\n');
      return { to, subject: `Booked: ${payload.event_type_name} with ${payload.host_name}`, text, kind, seriesUid };
    }
    case 'series_ended': {
      const text = [
        `Hello ${payload.attendee_name},`,
        '',
        `${payload.event_type_name} with ${payload.host_name} has ended. These meetings are canceled:`,
        ...lines,
      ].join('\n');
      return { to, subject: `Canceled: ${payload.event_type_name} with ${payload.host_name}`, text, kind, seriesUid };
    }
  }
}
