import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** Working hours and date overrides (docs/api/availability.md). */
export const AVAILABILITY_DOCS = {
  get_availability: {
    tag: 'Availability',
    summary: 'Get working hours',
    description: [
      'The working hours of `user_id` (a user id, a username, or `me`), whom the caller may act for, with their version as `ETag`.',
      'A person with none written answers the hours used, around the clock, with `default: true` and version 0.',
    ].join(' '),
    resource: 'WorkingHours',
    etag: true,
    responseExample: example.WORKING_HOURS,
  },
  replace_availability: {
    tag: 'Availability',
    summary: 'Replace working hours',
    description: [
      'Replaces the whole document; `If-Match` must name the version read. Each day’s intervals are sorted, and overlapping',
      'or touching ones merged, as availability reads them. Slots change at once; existing bookings stay.',
    ].join(' '),
    resource: 'WorkingHours',
    etag: true,
    requestExample: example.REPLACE_WORKING_HOURS_BODY,
    responseExample: example.WORKING_HOURS,
  },
  add_availability_override: {
    tag: 'Availability',
    summary: 'Set one date’s hours',
    description: 'Adds the override of `date`, or replaces the one there; `intervals: []` is a day off. Answers the whole document.',
    resource: 'WorkingHours',
    etag: true,
    requestExample: example.ADD_OVERRIDE_BODY,
    responseExample: example.WORKING_HOURS,
  },
  remove_availability_override: {
    tag: 'Availability',
    summary: 'Remove a date override',
    description: 'The date gets its weekday’s hours again. `404 not_found` when it has no override. Answers the whole document.',
    resource: 'WorkingHours',
    etag: true,
    responseExample: example.WORKING_HOURS,
  },
} satisfies OperationDocs;
