import * as example from '../examples.js';
import { type OperationDocs, RANGE } from '../operation-doc.js';

/** Bookings: one meeting each, series occurrences too. */
export const BOOKING_DOCS = {
  list_bookings: {
    tag: 'Bookings',
    summary: 'List bookings',
    description: [
      'The bookings whose host the caller may act for, one page at a time. Items have `responses: null`.',
      'For a catch-up sweep, page with `updated_since` and `sort=updated_at_asc` (requests.md "The catch-up sweep").',
      RANGE,
    ].join(' '),
    resource: 'Booking',
    responseExample: { ...example.BOOKING, responses: null },
  },
  get_booking: {
    tag: 'Bookings',
    summary: 'Get a booking',
    description: 'One booking with its form answers, and its version as `ETag`. Uids are matched regardless of case.',
    resource: 'Booking',
    etag: true,
    responseExample: example.BOOKING,
  },
  create_booking: {
    tag: 'Bookings',
    summary: 'Book a meeting',
    description: [
      'Books the event type’s owner at `start`, which must be a start `GET /v1/slots` would list, for the event type’s duration.',
      'Answers to the booking form go in `responses` and are checked against its questions. Keep the Idempotency-Key: a retry with it',
      'books once. A body field it does not take is refused, `400 validation_error` naming it.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    created: true,
    requestExample: example.CREATE_BOOKING_BODY,
    responseExample: example.BOOKING,
  },
  cancel_booking: {
    tag: 'Bookings',
    summary: 'Cancel a booking',
    description: [
      'Cancels a booking that has not started; the body may be omitted. A booking already canceled is answered as it is,',
      'its version not bumped and the new reason not stored. Inside its event type’s `cancel_notice_minutes` it is',
      '`409 cancel_notice`, unless a token caller sends `override_notice: true` (the booking page’s visitor cannot).',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    optionalBody: true,
    requestExample: example.CANCEL_BOOKING_BODY,
    responseExample: example.CANCELED_BOOKING,
  },
  reschedule_booking: {
    tag: 'Bookings',
    summary: 'Reschedule a booking',
    description: [
      'Moves a confirmed booking in place: same uid, new start and end, same duration, version bumped.',
      'Its own current time does not count against the new one. Moving a series occurrence marks it as moved by the invitee.',
      'Inside its event type’s `reschedule_notice_minutes` it is `409 reschedule_notice`, unless a token caller sends `override_notice: true`.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    requestExample: example.RESCHEDULE_BOOKING_BODY,
    responseExample: { ...example.BOOKING, version: 2, start_at: '2026-12-09T13:00:00.000Z', end_at: '2026-12-09T13:30:00.000Z' },
  },
  confirm_booking: {
    tag: 'Bookings',
    summary: 'Confirm a pending booking',
    description: [
      'The host (or whoever may act for them) confirms a `pending` booking of an event type that requires confirmation; it becomes',
      '`confirmed`. It held its time since it was made, so nothing else is checked and no double booking can follow. A booking that',
      'is not pending, or whose start (the deadline) has come, is `409 booking_not_pending`. If-Match is checked when sent.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    responseExample: example.CONFIRMED_BOOKING,
  },
  decline_booking: {
    tag: 'Bookings',
    summary: 'Decline a pending booking',
    description: [
      'The host (or whoever may act for them) declines a `pending` booking; it becomes `declined` and its time is free at once.',
      'The reason is kept in `cancellation_reason`, the time in `cancelled_at`; the body may be omitted. A booking that is not',
      'pending, or whose start has come (it is declined by then), is `409 booking_not_pending`. If-Match is checked when sent.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    optionalBody: true,
    requestExample: example.DECLINE_BOOKING_BODY,
    responseExample: example.DECLINED_BOOKING,
  },
  update_booking: {
    tag: 'Bookings',
    summary: 'Change a booking’s notes',
    description: [
      'Changes `metadata` (merged one level deep), `responses` (replaced whole) or `attendee_name`; never the time or status.',
      'Any other key is `422 field_immutable`. Every success bumps the version, even when nothing stored changed.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    requestExample: example.UPDATE_BOOKING_BODY,
    responseExample: { ...example.BOOKING, version: 2, metadata: { utm_source: 'newsletter', crm_id: '42' } },
  },
  mark_no_show: {
    tag: 'Bookings',
    summary: 'Record a no-show',
    description: [
      'Records that the attendee did not come: `no_show_at` is now, `no_show_reason` the reason sent (the body may be omitted).',
      'Only once the booking has started (`409 booking_not_started` before) and not for a canceled one. A booking already marked',
      'is answered as it is; clear the mark to record another. If-Match is checked when sent. Emits `booking.no_show`.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    optionalBody: true,
    requestExample: example.NO_SHOW_BODY,
    responseExample: example.NO_SHOW_BOOKING,
  },
  clear_no_show: {
    tag: 'Bookings',
    summary: 'Clear a no-show',
    description: [
      'Takes a no-show mark back: `no_show_at` and `no_show_reason` become null, version bumped, `booking.no_show_cleared` emitted.',
      'A booking without a mark is answered as it is. If-Match is checked when sent.',
    ].join(' '),
    resource: 'Booking',
    etag: true,
    responseExample: { ...example.NO_SHOW_BOOKING, version: 3, no_show_at: null, no_show_reason: null },
  },
} satisfies OperationDocs;
