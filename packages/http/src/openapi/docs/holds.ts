import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** Holds: a free start kept for one caller for a few minutes (docs/api/holds.md). */
export const HOLD_DOCS = {
  create_hold: {
    tag: 'Holds',
    summary: 'Hold a free start',
    description: [
      'Keeps one free start of an event type for the caller for `ttl_seconds` (30 to 1800, default 600): until `expires_at` it is busy',
      'for everyone else in slots, checks, bookings and series, and free for the caller. Book it with `hold_id` on `POST /v1/bookings`.',
      'Checked as a booking of that start would be, and refused with the same errors.',
    ].join(' '),
    resource: 'Hold',
    created: true,
    requestExample: { event_type_id: example.BOOKING.event_type_id, start: '2026-12-08T10:00:00Z', ttl_seconds: 600 },
    responseExample: example.HOLD,
  },
  release_hold: {
    tag: 'Holds',
    summary: 'Release a hold',
    description: 'Frees the caller’s hold at once and answers it. Another caller’s hold, or an unknown id, is `404 hold_not_found`.',
    resource: 'Hold',
    responseExample: example.HOLD,
  },
} satisfies OperationDocs;
