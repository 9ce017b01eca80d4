import type { BookedTime, TimeOptions } from '@schedule/core';
import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

// The answers of the two operations, as docs/api/times.md shows them (typed by core's views, checked against the schemas).
const TIME_OPTIONS: TimeOptions = {
  event_type: { id: example.BOOKING.event_type_id, slug: 'intro', name: 'Intro call', duration_minutes: 30, scheduling: 'single' },
  host: { username: 'alice', name: 'Alice Example' },
  host_timezone: 'Europe/Berlin',
  attendee_timezone: 'America/New_York',
  from: '2026-12-07',
  to: '2026-12-11',
  part_of_day: 'morning',
  options: [
    {
      option_id: example.HOLD.id,
      start: '2026-12-08T14:00:00.000Z',
      end: '2026-12-08T14:30:00.000Z',
      attendee_time: 'Tue 2026-12-08 09:00 America/New_York (UTC-05:00)',
      host_time: 'Tue 2026-12-08 15:00 Europe/Berlin (UTC+01:00)',
      held_until: '2026-12-01T09:10:00.000Z',
    },
  ],
  not_held_reason: null,
};

const BOOKED_TIME: BookedTime = {
  uid: example.BOOKING.uid,
  version: 1,
  status: 'confirmed',
  title: example.BOOKING.title,
  start_at: '2026-12-08T14:00:00.000Z',
  end_at: '2026-12-08T14:30:00.000Z',
  attendee_time: 'Tue 2026-12-08 09:00 America/New_York (UTC-05:00)',
  host_time: 'Tue 2026-12-08 15:00 Europe/Berlin (UTC+01:00)',
  hosts: ['alice'],
  location_url: 'https://meet.example.com/intro-3f9a',
  warnings: [],
};

/** Finding a few times in the attendee's terms and booking one (docs/api/times.md). */
export const TIME_DOCS = {
  find_times: {
    tag: 'Times',
    summary: 'Find a few times to meet',
    description: [
      "A few free starts of a host's (or a team's) event type within the attendee's days and part of day, the first of each day first,",
      'each shown on the attendee’s and the host’s clock (weekday, date, time, zone, offset) and held for 10 minutes unless told not to.',
      'The event type may be named by id, slug or name; several that fit are `400 validation_error` listing them.',
      '`not_held_reason` says why options are not held (a team type, no `bookings:create`, the hold cap).',
    ].join(' '),
    resource: 'TimeOptions',
    requestExample: {
      host: 'alice',
      attendee_timezone: 'America/New_York',
      from: '2026-12-07',
      to: '2026-12-11',
      part_of_day: 'morning',
      count: 1,
    },
    responseExample: TIME_OPTIONS,
  },
  book_time: {
    tag: 'Times',
    summary: 'Book a found time',
    description: [
      'Books an option of `POST /v1/times/find` by its `option_id`, with every rule of `POST /v1/bookings`, and lets go of the other',
      'options of the same search. An expired hold books its start without it while it is still free. Answers the booking on both',
      'clocks and `warnings` to pass on (the same attendee already meets the host that day).',
    ].join(' '),
    resource: 'BookedTime',
    created: true,
    etag: true,
    requestExample: { option_id: example.HOLD.id, attendee: { email: 'kim@example.com', name: 'Kim', timezone: 'America/New_York' } },
    responseExample: BOOKED_TIME,
  },
} satisfies OperationDocs;
