import { describe, expect, it } from 'vitest';
import { bookingMail } from '../src/bookings/booking-mail.js';
import type { Booking } from '../src/bookings/booking-view.js';
import { reminderRulesSchema } from '../src/reminders/reminder-rules.js';
import type { Executor } from '../src/storage/store.js';
import { importedBookingView } from './support/booking-workspace.js';

// The mails a booking change queues (docs/mail.md), built from what the
// caller already has: with the host, the event type's name and the attendee
// switch given, bookingMail reads nothing.

const NO_DATABASE = {} as Executor;
const HOST = { name: 'Hana Host', email: 'hana@acme.test', timezone: 'Europe/Berlin' };
const KNOWN = { host: HOST, eventType: { name: 'Meeting', rules: [], hostOn: true }, attendeeMail: true };
const RULES = reminderRulesSchema.parse([
  { minutes: 1440 },
  { minutes: 60, to: 'both' },
  { minutes: 15, to: 'host' },
  { minutes: 30, relative_to: 'end', to: 'both' },
]);

// A booking of hana's moved once, with a link and an attendee in Tokyo.
const BOOKING = importedBookingView(
  { uid: '74000000-0000-4000-8000-000000000001', host: 'hana', slug: 'meet', start: '2026-03-02T14:00:00Z' },
  {
    version: 3,
    attendees: [{ email: 'bob@example.com', name: 'Bob', timezone: 'Asia/Tokyo' }],
    location: { type: 'link', url: 'https://meet.test/x', value: null },
  },
) as Booking;

/** The payload both mails share, as stored (JSON). */
const common = {
  title: BOOKING.title,
  event_type_name: 'Meeting',
  host: { email: 'hana@acme.test', name: 'Hana Host' },
  attendee: { email: 'bob@example.com', name: 'Bob' },
  guests: [],
  start_at: BOOKING.start_at,
  end_at: BOOKING.end_at,
  sequence: 3,
  status: 'confirmed',
  location: BOOKING.location,
};

const stored = (mails: readonly { recipient: string; payload: unknown }[]) =>
  mails.map(({ recipient, payload }) => ({ recipient, payload: JSON.parse(JSON.stringify(payload)) }));

describe('bookingMail', () => {
  it('tells the attendee of an occurrence what its series changed, and no more than the change says', async () => {
    const mails = await bookingMail(NO_DATABASE, 'booking_changed', BOOKING, { ...KNOWN, attendeeOnly: true, changed: 'location' });
    expect(stored(mails)).toEqual([
      { recipient: 'bob@example.com', payload: { ...common, changed: 'location', role: 'attendee', timezone: 'Asia/Tokyo' } },
    ]);
  });

  it('mails only the host about a booking that records no attendee, naming the attendee as nobody', async () => {
    const mails = await bookingMail(NO_DATABASE, 'booking_canceled', { ...BOOKING, attendees: [] }, { ...KNOWN, reason: null });
    expect(stored(mails)).toEqual([
      {
        recipient: 'hana@acme.test',
        payload: { ...common, attendee: { email: '', name: '' }, reason: null, role: 'host', timezone: 'Europe/Berlin' },
      },
    ]);
  });

  it("gives each recipient's invite the alarms of the rules that remind them before the start, and none when the host turned reminders off", async () => {
    const alarms = async (hostOn: boolean) =>
      stored(
        await bookingMail(NO_DATABASE, 'booking_created', BOOKING, { ...KNOWN, eventType: { name: 'Meeting', rules: RULES, hostOn } }),
      ).map((m) => [m.recipient, m.payload.alarms]);
    expect(await alarms(true)).toEqual([
      ['hana@acme.test', [60, 15]],
      ['bob@example.com', [1440, 60]],
    ]);
    expect(await alarms(false)).toEqual([
      ['hana@acme.test', undefined],
      ['bob@example.com', undefined],
    ]);
  });
});
