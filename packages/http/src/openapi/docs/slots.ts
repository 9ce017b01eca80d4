import * as example from '../examples.js';
import type { OperationDocs } from '../operation-doc.js';

/** Slots: start times computed on request. */
export const SLOT_DOCS = {
  list_slots: {
    tag: 'Slots',
    summary: 'List free slots',
    description: [
      'The starts at which the event type can be booked in a window of at most 31 days, computed from the owner’s working hours,',
      'the slot grid, notice, horizon, buffers, confirmed bookings and conflict calendars. Not paged; an event type that is off has none.',
    ].join(' '),
    resource: 'SlotList',
    responseExample: example.SLOTS,
  },
  check_slot: {
    tag: 'Slots',
    summary: 'Check one start',
    description: [
      'Whether one exact start can be booked. When it cannot, `reason` is the first that applies and `next_available`',
      'the first free start in the 7 days after the checked end, or null.',
    ].join(' '),
    resource: 'SlotCheck',
    responseExample: example.SLOT_TAKEN,
  },
} satisfies OperationDocs;
