import type { OperationName } from '@schedule/core';
import { AVAILABILITY_DOCS } from './docs/availability.js';
import { BOOKING_DOCS } from './docs/bookings.js';
import { CALENDAR_DOCS } from './docs/calendars.js';
import { DIRECTORY_DOCS } from './docs/directory.js';
import { EVENT_TYPE_DOCS } from './docs/event-types.js';
import { HOLD_DOCS } from './docs/holds.js';
import { PEOPLE_DOCS } from './docs/people.js';
import { SERIES_DOCS } from './docs/series.js';
import { SLOT_DOCS } from './docs/slots.js';
import { TIME_OFF_DOCS } from './docs/time-off.js';
import { TIME_DOCS } from './docs/times.js';
import { WEBHOOK_DOCS } from './docs/webhooks.js';
import type { OperationDoc } from './operation-doc.js';

// One file per resource in docs/; the type below keeps the promise that a new
// operation without a doc does not compile.

/** Every operation's doc, by name. */
export const OPERATION_DOCS: Record<OperationName, OperationDoc> = {
  ...SERIES_DOCS,
  ...BOOKING_DOCS,
  ...SLOT_DOCS,
  ...HOLD_DOCS,
  ...TIME_DOCS,
  ...WEBHOOK_DOCS,
  ...CALENDAR_DOCS,
  ...AVAILABILITY_DOCS,
  ...DIRECTORY_DOCS,
  ...TIME_OFF_DOCS,
  ...PEOPLE_DOCS,
  ...EVENT_TYPE_DOCS,
};
