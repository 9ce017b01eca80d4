import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

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
    responseExample: example.TIME_OPTIONS,
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
    responseExample: example.BOOKED_TIME,
  },
} satisfies OperationDocs;
