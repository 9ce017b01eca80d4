import { describe, expect, it } from 'vitest';
import { displayName } from '../src/bookings/attendee-name.js';
import { type NewBooking, newBookingRow } from '../src/bookings/new-booking.js';
import { writeNewBooking } from '../src/bookings/write-new-booking.js';
import { manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { outboxRow } from '../src/outbox/record-event.js';
import type { NotificationRow } from '../src/outbox/record-notification.js';
import type { Executor } from '../src/storage/store.js';

// The row a new booking is stored as (docs/api/endpoints.md "Bookings"), built
// the same for a create, a series occurrence and an import.

const NOW = '2026-03-02T08:30:00.000Z';

const booking = (changes: Partial<NewBooking> = {}): NewBooking => ({
  uid: '72000000-0000-4000-8000-000000000001',
  eventType: { id: '72000000-0000-4000-8000-0000000000e1', name: 'Meeting', durationMinutes: 30 },
  host: { id: '72000000-0000-4000-8000-0000000000a1', name: 'Hana Host', calendars: [] },
  startMs: Date.parse('2026-03-02T10:00:00Z'),
  attendee: { email: 'pat@example.com', name: 'Pat' },
  location: { type: 'conference', url: null, value: null },
  ...changes,
});

describe('displayName', () => {
  it.each([
    ['a name of spaces falls back to first and last name', { name: '   ', first_name: 'Ann', last_name: 'Lee' }, 'Ann Lee'],
    ['a first name of spaces is left out', { first_name: ' ', last_name: 'Lee' }, 'Lee'],
    ['names all of spaces fall back to the email', { name: ' ', first_name: ' ', last_name: '  ' }, 'ann@example.com'],
    ['a name with spaces around it is kept as given', { name: ' Ann ' }, ' Ann '],
  ])('%s', (_, names, shown) => {
    expect(displayName({ email: 'ann@example.com', ...names })).toBe(shown);
  });
});

describe('newBookingRow', () => {
  it("keeps the attendee's phone and SMS consent in the stored attendee, though the Booking does not show them", () => {
    const row = newBookingRow(booking({ attendee: { email: 'pat@example.com', name: 'Pat', phone: '+15550100', sms_opt_in: false } }), NOW);
    expect(JSON.parse(row.attendees_json)).toEqual([
      { email: 'pat@example.com', name: 'Pat', timezone: 'UTC', phone: '+15550100', sms_opt_in: false },
    ]);
  });

  it('stores an attendee without phone or SMS consent as email, name and zone alone', () => {
    expect(JSON.parse(newBookingRow(booking(), NOW).attendees_json)).toEqual([{ email: 'pat@example.com', name: 'Pat', timezone: 'UTC' }]);
  });

  it('stores a booking without guests with an empty guest list', () => {
    expect(newBookingRow(booking(), NOW).guests_json).toBe('[]');
  });
});

describe('writeNewBooking', () => {
  // A create queues the host's mail and perhaps the attendee's: PostgreSQL has one statement for each count.
  it('refuses more than twelve mails (two, and five rules of reminders to two) on PostgreSQL before it runs anything', async () => {
    const deps = { clock: manualClock(NOW), ids: randomIds };
    const row = newBookingRow(booking(), NOW);
    const mail: NotificationRow[] = 'abcdefghijklm'.split('').map((who) => ({
      id: `72000000-0000-4000-8000-00000000000${who}`,
      kind: 'booking_created',
      series_uid: null,
      booking_uid: row.uid,
      recipient: `${who}@example.com`,
      payload_json: '{}',
      status: 'pending',
      attempts: 0,
      next_attempt_at: NOW,
      created_at: NOW,
      sent_at: null,
    }));
    // No database: the refusal comes before the first statement.
    const noDatabase = {} as Executor;
    // Twelve are taken: the refusal is not what stops them here (the missing database is).
    const twelve = { row, event: outboxRow(deps, 'booking.created', row.uid, {}), mail: mail.slice(0, 12) };
    await expect(writeNewBooking(noDatabase, 'postgres', twelve, { startMs: 0, endMs: 1 }, { nowMs: 0, holder: '' })).rejects.not.toThrow(
      'at most',
    );
    const write = { row, event: outboxRow(deps, 'booking.created', row.uid, {}), mail };
    await expect(writeNewBooking(noDatabase, 'postgres', write, { startMs: 0, endMs: 1 }, { nowMs: 0, holder: '' })).rejects.toThrow(
      'writeNewBooking: at most 12 mails per booking',
    );
  });
});
