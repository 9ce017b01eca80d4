import fc from 'fast-check';
import ICAL from 'ical.js';
import { DateTime, Settings } from 'luxon';
import { describe, expect, it } from 'vitest';
import { composeMail, type StoredNotification } from '../src/notifications/compose-mail.js';
import { loggingMailer } from '../src/notifications/mailer.js';
import { zoneAbbreviation } from '../src/notifications/zone-abbreviation.js';
import type { BookingNotificationPayload, SeriesNotificationPayload } from '../src/outbox/record-notification.js';

// What each notification says: the words, the HTML beside them, and the invite.

const BOOKING: BookingNotificationPayload = {
  role: 'attendee',
  timezone: 'Europe/Berlin',
  title: 'Meet between Hana Host and Bob <script>',
  event_type_name: 'Meet',
  host: { email: 'hana@host.test', name: 'Hana Host' },
  attendee: { email: 'bob@guest.test', name: 'Bob <script>' },
  guests: [],
  start_at: '2026-06-01T08:00:00.000Z',
  end_at: '2026-06-01T08:30:00.000Z',
  sequence: 1,
  status: 'confirmed',
  location: { type: 'phone', url: null, value: '+49 30 1234' },
};

const stored = (
  payload: BookingNotificationPayload,
  kind: 'booking_created' | 'booking_rescheduled' | 'booking_canceled' | 'booking_changed' = 'booking_created',
): StoredNotification => ({
  id: 'n1',
  kind,
  recipient: payload.role === 'attendee' ? payload.attendee.email : payload.host.email,
  seriesUid: null,
  bookingUid: 'b1',
  createdAt: '2026-05-01T12:00:00.000Z',
  payload,
});

/** A series mail to Bob about one date, as mail queued before invites existed wrote it, with `extra` over it. */
const seriesStored = (
  kind: 'series_confirmation' | 'series_ended',
  extra: Partial<SeriesNotificationPayload> = {},
): StoredNotification => ({
  id: 'n2',
  kind,
  recipient: 'bob@guest.test',
  seriesUid: 's1',
  bookingUid: null,
  createdAt: '2026-05-01T12:00:00.000Z',
  payload: {
    attendee_name: 'Bob',
    event_type_name: 'Weekly',
    host_name: 'Hana Host',
    timezone: 'UTC',
    occurrences: [{ start_at: '2026-05-04T10:00:00.000Z', end_at: '2026-05-04T10:30:00.000Z' }],
    ...extra,
  },
});

describe('composeMail', () => {
  it('booking mail: the same words as text and as escaped HTML, a phone meeting named by its number', () => {
    const mail = composeMail(stored(BOOKING));
    expect(mail).toMatchObject({ id: 'n1', to: 'bob@guest.test', replyTo: 'hana@host.test', subject: 'Booked: Meet with Hana Host' });
    expect(mail.text).toBe(
      [
        'Hello Bob <script>,',
        '',
        'Meet with Hana Host is booked.',
        '',
        'When: Monday 1 June 2026, 10:00–10:30 (CEST)',
        'Where: +49 30 1234',
        '',
        'Open the attached invitation to add it to your calendar.',
      ].join('\n'),
    );
    expect(mail.html).toBe(
      [
        '<!DOCTYPE html>',
        '<html><body style="font-family: sans-serif">',
        '<p>Hello Bob &#60;script&#62;,</p>',
        '<p>Meet with Hana Host is booked.</p>',
        '<p>When: Monday 1 June 2026, 10:00–10:30 (CEST)<br>',
        'Where: +49 30 1234</p>',
        '<p>Open the attached invitation to add it to your calendar.</p>',
        '</body></html>',
        '',
      ].join('\n'),
    );
    const event = new ICAL.Component(ICAL.parse(mail.calendar!.content)).getFirstSubcomponent('vevent')!;
    expect([event.getFirstPropertyValue('location'), event.getFirstPropertyValue('url')]).toEqual(['+49 30 1234', null]);
    expect(event.getFirstPropertyValue('summary')).toBe('Meet between Hana Host and Bob <script>');
    expect(event.getFirstPropertyValue('dtstamp')!.toString()).toBe('2026-05-01T12:00:00Z');
  });

  it("the host's mail names the attendee, and a reply goes to them", () => {
    const mail = composeMail(stored({ ...BOOKING, role: 'host', attendee: { email: 'bob@guest.test', name: 'Bob' } }, 'booking_canceled'));
    expect(mail).toMatchObject({ to: 'hana@host.test', replyTo: 'bob@guest.test', subject: 'Canceled: Meet with Bob' });
    expect(mail.calendar).toMatchObject({ method: 'CANCEL', filename: 'cancel.ics' });
    expect(mail.text.split('\n').slice(0, 3)).toEqual(['Hello Hana Host,', '', 'Meet with Bob is canceled.']);
  });

  it('an occurrence given another host or link: Changed, REQUEST with the new ORGANIZER, shown as from the new host', () => {
    const moved = composeMail(
      stored({ ...BOOKING, host: { email: 'ivy@host.test', name: 'Ivy Host' }, sequence: 3, changed: 'host' }, 'booking_changed'),
    );
    expect(moved).toMatchObject({ subject: 'Changed: Meet with Ivy Host', replyTo: 'ivy@host.test', fromName: 'Ivy Host' });
    expect(moved.text.split('\n').slice(0, 3)).toEqual(['Hello Bob <script>,', '', 'Meet is now with Ivy Host.']);
    expect(moved.calendar).toMatchObject({ method: 'REQUEST', filename: 'invite.ics' });
    const event = new ICAL.Component(ICAL.parse(moved.calendar!.content)).getFirstSubcomponent('vevent')!;
    expect([event.getFirstPropertyValue('organizer'), event.getFirstPropertyValue('sequence')]).toEqual(['mailto:ivy@host.test', 3]);

    const relinked = composeMail(
      stored(
        { ...BOOKING, location: { type: 'link', url: 'https://meet.example/new', value: null }, changed: 'location' },
        'booking_changed',
      ),
    );
    expect(relinked.subject).toBe('Changed: Meet with Hana Host');
    expect(relinked.text.split('\n').slice(2, 6)).toEqual([
      'Meet with Hana Host has a new place to meet.',
      '',
      'When: Monday 1 June 2026, 10:00–10:30 (CEST)',
      'Join at https://meet.example/new',
    ]);
  });

  it('a move says when it was, and lists the guests and the reason; the link is clickable in the HTML', () => {
    const mail = composeMail(
      stored(
        {
          ...BOOKING,
          location: { type: 'link', url: 'http://meet.example/r?a=1&b=2', value: null },
          guests: [
            { email: 'cy@guest.test', name: 'Cy' },
            { email: 'di@guest.test', name: 'Di' },
          ],
          previous: { start_at: '2026-05-29T08:00:00.000Z', end_at: '2026-05-29T08:30:00.000Z' },
          reason: 'Clash',
        },
        'booking_rescheduled',
      ),
    );
    expect(mail.subject).toBe('Moved: Meet with Hana Host');
    expect(mail.text.split('\n').slice(2, 10)).toEqual([
      'Meet with Hana Host has moved.',
      '',
      'When: Monday 1 June 2026, 10:00–10:30 (CEST)',
      'Was: Friday 29 May 2026, 10:00–10:30 (CEST)',
      'Join at http://meet.example/r?a=1&b=2',
      'Guests: cy@guest.test, di@guest.test',
      'Reason: Clash',
      '',
    ]);
    expect(mail.html).toContain(
      '<br>\nJoin at <a href="http://meet.example/r?a=1&#38;b=2">http://meet.example/r?a=1&#38;b=2</a><br>\nGuests: cy@guest.test, di@guest.test<br>',
    );
  });

  it('a cancel says when, not where; a mail without a move or guests has no Was or Guests line', () => {
    const mail = composeMail(stored({ ...BOOKING, previous: { start_at: BOOKING.start_at, end_at: BOOKING.end_at } }, 'booking_canceled'));
    expect(mail.text.split('\n').slice(2, 7)).toEqual([
      'Meet with Hana Host is canceled.',
      '',
      'When: Monday 1 June 2026, 10:00–10:30 (CEST)',
      '',
      'Open the attached cancellation to remove it from your calendar.',
    ]);
  });

  // Issue 30 item 8: the confirmation carried one VEVENT per occurrence in one REQUEST; each occurrence's invite is now its own booking mail.
  it("a series confirmation carries no invite, even with its occurrences' bookings at hand; it is shown as from the host", () => {
    const mail = composeMail(
      seriesStored('series_confirmation', {
        attendee_email: 'bob@guest.test',
        host_email: 'hana@host.test',
        occurrences: [{ start_at: '2026-05-04T10:00:00.000Z', end_at: '2026-05-04T10:30:00.000Z', uid: 'b1', sequence: 1 }],
      }),
    );
    expect(mail.calendar).toBeUndefined();
    expect(mail).toMatchObject({ subject: 'Booked: Weekly with Hana Host', replyTo: 'hana@host.test', fromName: 'Hana Host' });
  });

  it('a series confirmation lists the booked dates, the dates that were not free, and where to join, as text and as HTML lists', () => {
    const mail = composeMail(
      seriesStored('series_confirmation', {
        occurrences: [
          { start_at: '2026-05-04T10:00:00.000Z', end_at: '2026-05-04T10:30:00.000Z' },
          { start_at: '2026-05-18T10:00:00.000Z', end_at: '2026-05-18T10:30:00.000Z' },
        ],
        skipped: [{ date: '2026-05-11', start_at: '2026-05-11T10:00:00.000Z' }],
        location_url: 'https://meet.example/weekly',
      }),
    );
    expect(mail.text).toBe(
      [
        'Hello Bob,',
        '',
        'Weekly with Hana Host is booked on these dates:',
        '  - Monday 4 May 2026, 10:00 (UTC)',
        '  - Monday 18 May 2026, 10:00 (UTC)',
        '',
        'These dates were not free and are not booked:',
        '  - Monday 11 May 2026, 10:00 (UTC)',
        '',
        'Join at https://meet.example/weekly',
      ].join('\n'),
    );
    expect(mail.html).toContain(
      '<p>These dates were not free and are not booked:</p>\n<ul>\n<li>Monday 11 May 2026, 10:00 (UTC)</li>\n</ul>\n<p>Join at <a href="https://meet.example/weekly">',
    );
  });

  it('a series confirmation with every date free and no link has neither section; an end with no dates left has no empty list', () => {
    expect(composeMail(seriesStored('series_confirmation', { skipped: [] })).text).toBe(
      ['Hello Bob,', '', 'Weekly with Hana Host is booked on these dates:', '  - Monday 4 May 2026, 10:00 (UTC)'].join('\n'),
    );
    const ended = composeMail(seriesStored('series_ended', { occurrences: [] }));
    expect(ended.html).not.toContain('<ul>');
    expect(ended.html).toContain('<p>Weekly with Hana Host has ended. These meetings are canceled:</p>\n</body>');
  });

  it('a manage link closes the mail in its own paragraph, as text and as an escaped link in the HTML; none is written without one', () => {
    const url = 'https://book.test/booking/b1.1780300000.mac?x=<1>&y';
    const mail = composeMail({ ...stored(BOOKING), manageUrl: url });
    expect(mail.text.split('\n').slice(-3)).toEqual([
      'Open the attached invitation to add it to your calendar.',
      '',
      `To reschedule or cancel: ${url}`,
    ]);
    expect(mail.html).toContain(
      [
        '<p>Open the attached invitation to add it to your calendar.</p>',
        '<p>To reschedule or cancel: <a href="https://book.test/booking/b1.1780300000.mac?x=&#60;1&#62;&#38;y">https://book.test/booking/b1.1780300000.mac?x=&#60;1&#62;&#38;y</a></p>',
        '</body>',
      ].join('\n'),
    );
    // An empty link is no link; the mail reads as one composed without it.
    expect(composeMail({ ...stored(BOOKING), manageUrl: '' })).toEqual(composeMail(stored(BOOKING)));
    expect(composeMail({ ...stored(BOOKING), manageUrl: undefined }).text).not.toContain('To reschedule or cancel');
  });

  it("reads in English whatever the server's default locale", () => {
    const before = Settings.defaultLocale;
    Settings.defaultLocale = 'de-DE';
    try {
      expect(composeMail(stored(BOOKING)).text).toContain('When: Monday 1 June 2026, 10:00–10:30 (CEST)');
    } finally {
      Settings.defaultLocale = before;
    }
  });

  it('series mail queued before invites existed (no booking uids) goes as text alone, its words unchanged', () => {
    const mail = composeMail(seriesStored('series_ended'));
    expect(mail.calendar).toBeUndefined();
    expect(mail.replyTo).toBeUndefined();
    expect(mail.text).toBe(
      ['Hello Bob,', '', 'Weekly with Hana Host has ended. These meetings are canceled:', '  - Monday 4 May 2026, 10:00 (UTC)'].join('\n'),
    );
    expect(mail.html).toContain('<ul>\n<li>Monday 4 May 2026, 10:00 (UTC)</li>\n</ul>');
  });
});

describe("composeMail's times", () => {
  // What a meeting's time read as when luxon wrote all of it (its `hasSame`): the mail's own faster writing must read the same.
  // The zone's name is the one rule of zone-abbreviation.ts (tested there), no longer luxon's `ZZZZ` (issue 30 item 10).
  function luxonSpan(start: string, end: string, zone: string): string {
    const local = (instant: string) => DateTime.fromISO(instant, { zone: 'utc' }).setZone(zone).setLocale('en-GB');
    const name = (t: DateTime) => ` (${zoneAbbreviation(t.toMillis(), zone)})`;
    const [from, to] = [local(start), local(end)];
    const full = (t: DateTime) => `${t.toFormat('cccc d LLLL yyyy, HH:mm')}${name(t)}`;
    if (from.hasSame(to, 'day') && from.offset === to.offset)
      return `${from.toFormat('cccc d LLLL yyyy, HH:mm')}–${to.toFormat('HH:mm')}${name(to)}`;
    return `${full(from)} to ${full(to)}`;
  }

  it.each([
    [
      'a month later',
      '2026-04-01T08:00:00.000Z',
      '2026-05-01T08:30:00.000Z',
      'Wednesday 1 April 2026, 10:00 (CEST) to Friday 1 May 2026, 10:30 (CEST)',
    ],
    [
      'a year later',
      '2026-01-05T09:00:00.000Z',
      '2027-01-05T09:30:00.000Z',
      'Monday 5 January 2026, 10:00 (CET) to Tuesday 5 January 2027, 10:30 (CET)',
    ],
  ])('ends on the same day of %s: both ends in full', (_, start_at, end_at, when) => {
    const mail = composeMail(stored({ ...BOOKING, start_at, end_at }));
    expect(mail.text.split('\n')).toContain(`When: ${when}`);
  });

  it('the When line reads as luxon wrote it, for any zone, start and length (across midnight and offset changes)', () => {
    const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC'];
    const start = fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }).map((m) => m * 60_000);
    fc.assert(
      fc.property(fc.constantFrom(...zones), start, fc.integer({ min: 5, max: 48 * 60 }), (zone, startMs, minutes) => {
        const [start_at, end_at] = [new Date(startMs).toISOString(), new Date(startMs + minutes * 60_000).toISOString()];
        const mail = composeMail(stored({ ...BOOKING, timezone: zone, start_at, end_at }));
        expect(mail.text.split('\n')).toContain(`When: ${luxonSpan(start_at, end_at, zone)}`);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('composeMail of webhook_paused', () => {
  it('names the webhook by its URL and description, and has no invite', () => {
    const mail = composeMail({
      id: 'n3',
      kind: 'webhook_paused',
      recipient: 'owner@host.test',
      seriesUid: null,
      bookingUid: null,
      createdAt: '2026-05-02T12:00:00.000Z',
      payload: {
        webhook_id: 'wh_2',
        url: 'https://crm.example/hook',
        description: 'CRM sync',
        failing_since: '2026-05-01T09:30:00.000Z',
        consecutive_failures: 12,
      },
    });
    expect(mail.subject).toBe('Webhook paused: https://crm.example/hook');
    expect(mail.text.split('\n')[2]).toBe(
      'Your webhook https://crm.example/hook (CRM sync) was paused: its last 12 deliveries failed, the first of them on Friday 1 May 2026, 09:30 (UTC).',
    );
    expect(mail.calendar).toBeUndefined();
    expect(mail.html).toContain('<li>schedule webhooks update wh_2 --status active</li>');
  });
});

describe('loggingMailer', () => {
  it('logs one line a mail, naming the invite it carries', async () => {
    const lines: [Record<string, unknown>, string][] = [];
    const mailer = loggingMailer((fields, message) => lines.push([fields, message]));
    await mailer.send(composeMail(stored(BOOKING)));
    expect(lines).toEqual([
      [
        {
          to: 'bob@guest.test',
          subject: 'Booked: Meet with Hana Host',
          kind: 'booking_created',
          series_uid: null,
          booking_uid: 'b1',
          invite: 'REQUEST',
        },
        'mail',
      ],
    ]);
  });
});
