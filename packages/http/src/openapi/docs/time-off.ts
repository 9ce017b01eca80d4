import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** Time off (docs/api/time-off.md). */
export const TIME_OFF_DOCS = {
  list_time_off: {
    tag: 'Availability',
    summary: 'List time off',
    description: [
      'A person’s time off (`me`, a user id or a username), earliest start first (`start_at`, then `id`).',
      '`from` and `to` keep the ranges overlapping that window.',
    ].join(' '),
    resource: 'TimeOff',
    responseExample: example.TIME_OFF,
  },
  get_time_off: {
    tag: 'Availability',
    summary: 'Get time off',
    description: 'One range of a person’s time off, with its version as `ETag`.',
    resource: 'TimeOff',
    etag: true,
    responseExample: example.TIME_OFF,
  },
  create_time_off: {
    tag: 'Availability',
    summary: 'Add time off',
    description: [
      'Adds a range that is busy time for every event type of the person: `start` and `end` instants, or whole days',
      '(`start_date`, and `end_date` inclusive, defaulting to it) in the zone of their working hours. At most 366 days.',
      'Bookings already inside it stay; slots, checks, bookings and series skip it. Sends `time_off.created`.',
    ].join(' '),
    resource: 'TimeOff',
    etag: true,
    created: true,
    requestExample: example.CREATE_TIME_OFF_BODY,
    responseExample: example.TIME_OFF,
  },
  update_time_off: {
    tag: 'Availability',
    summary: 'Change time off',
    description:
      'Each field sent replaces one end (`start` or `start_date`, `end` or `end_date`) or the `reason`; the range that results is checked whole. Bumps the version.',
    resource: 'TimeOff',
    etag: true,
    requestExample: example.UPDATE_TIME_OFF_BODY,
    responseExample: example.MOVED_TIME_OFF,
  },
  delete_time_off: {
    tag: 'Availability',
    summary: 'Remove time off',
    description: 'Removes the range and answers it as it was; its time is free again. Sends `time_off.deleted`.',
    resource: 'TimeOff',
    responseExample: example.TIME_OFF,
  },
} satisfies OperationDocs;
