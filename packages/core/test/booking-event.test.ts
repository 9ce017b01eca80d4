import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Booking } from '../src/bookings/booking-view.js';
import { bookingEventText } from '../src/calendar-sync/booking-event.js';

// The event a booking is written as in its host's CalDAV calendar
// (docs/calendars.md "Bookings written back"), read back with ical.js.

const BOOKING: Booking = {
  uid: 'b1000000-0000-4000-8000-000000000001',
  version: 3,
  event_type_id: 'e1000000-0000-4000-8000-000000000001',
  event_type_slug: 'call',
  title: 'Call between Cara Host and Ann',
  status: 'confirmed',
  start_at: '2026-06-02T10:00:00.000Z',
  end_at: '2026-06-02T10:30:00.000Z',
  timezone: 'Europe/Berlin',
  host: { user_id: 'u1000000-0000-4000-8000-000000000001', username: 'cara', email: 'cara@example.com' },
  hosts: [{ user_id: 'u1000000-0000-4000-8000-000000000001', username: 'cara', email: 'cara@example.com' }],
  attendees: [{ email: 'ann@example.com', name: 'Ann', timezone: 'UTC' }],
  guests: [{ email: 'gus@example.com', name: 'Gus' }, { email: 'gia@example.com' }],
  location: { type: 'phone', url: null, value: '+49 30 1234567' },
  metadata: {},
  responses: { topic: 'Budget', rooms: ['A', 'B'] },
  calendar_sync_status: 'pending',
  calendar_event_id: '',
  rescheduled_from_uid: null,
  cancelled_at: null,
  cancellation_reason: null,
  no_show_at: null,
  no_show_reason: null,
  created_at: '2026-06-01T08:00:00.000Z',
  updated_at: '2026-06-01T09:00:00.000Z',
};

function read(booking: Booking) {
  const vevent = new ICAL.Component(
    ICAL.parse(bookingEventText(booking, { name: 'Cara Host', email: 'cara@example.com' })) as unknown[],
  ).getFirstSubcomponent('vevent')!;
  return {
    status: vevent.getFirstPropertyValue('status'),
    location: vevent.getFirstPropertyValue('location'),
    url: vevent.getFirstPropertyValue('url'),
    description: vevent.getFirstPropertyValue('description'),
    attendees: vevent
      .getAllProperties('attendee')
      .map((p) => [p.getFirstValue(), p.getParameter('cn'), p.getParameter('partstat'), p.getParameter('schedule-agent')]),
  };
}

describe('bookingEventText', () => {
  it('a phone booking: the number as LOCATION, no URL, no join line; guests as attendees; each answer in the description', () => {
    expect(read(BOOKING)).toEqual({
      status: 'CONFIRMED',
      location: '+49 30 1234567',
      url: null,
      description: 'Booked by Ann <ann@example.com>\ntopic: Budget\nrooms: ["A","B"]',
      attendees: [
        ['mailto:ann@example.com', 'Ann', 'ACCEPTED', 'CLIENT'],
        ['mailto:gus@example.com', 'Gus', 'NEEDS-ACTION', 'CLIENT'],
        ['mailto:gia@example.com', undefined, 'NEEDS-ACTION', 'CLIENT'],
      ],
    });
  });

  it('a conference booking: the link as LOCATION and URL, and a join line', () => {
    const link = 'https://meet.example.com/b1';
    expect(read({ ...BOOKING, location: { type: 'conference', url: link, value: null }, responses: {}, guests: [] })).toMatchObject({
      location: link,
      url: link,
      description: `Booked by Ann <ann@example.com>\nJoin: ${link}`,
    });
  });

  it('a booking without an attendee (none recorded): no ATTENDEE, and the description says only that it was booked', () => {
    expect(read({ ...BOOKING, attendees: [], guests: [], responses: null })).toMatchObject({ attendees: [], description: 'Booked' });
  });
});
