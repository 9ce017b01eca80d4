import {
  addAvailabilityOverrideOperation,
  getAvailabilityOperation,
  removeAvailabilityOverrideOperation,
  replaceAvailabilityOperation,
} from './availability-operations.js';
import {
  cancelBookingOperation,
  clearNoShowOperation,
  confirmBookingOperation,
  createBookingOperation,
  declineBookingOperation,
  getBookingOperation,
  listBookingsOperation,
  markNoShowOperation,
  reassignBookingOperation,
  rescheduleBookingOperation,
  updateBookingOperation,
} from './booking-operations.js';
import {
  addCalendarOperation,
  getCalendarOperation,
  listCalendarsOperation,
  removeCalendarOperation,
  resyncCalendarOperation,
  testCalendarOperation,
} from './calendar-operations.js';
import { listEventTypesOperation, listPeopleOperation, whoamiOperation } from './directory-operations.js';
import {
  createEventTypeOperation,
  deleteEventTypeOperation,
  getEventTypeOperation,
  updateEventTypeOperation,
} from './event-type-operations.js';
import { createHoldOperation, releaseHoldOperation } from './hold-operations.js';
import type { Operation } from './operation.js';
import {
  createPersonOperation,
  deactivatePersonOperation,
  getPersonOperation,
  reactivatePersonOperation,
  updatePersonOperation,
} from './people-operations.js';
import {
  changeSeriesHostOperation,
  createSeriesOperation,
  endSeriesOperation,
  getSeriesOperation,
  listSeriesOperation,
  pauseSeriesOperation,
  previewSeriesOperation,
  resumeSeriesOperation,
  updateSeriesOperation,
} from './series-operations.js';
import { checkSlotOperation, listSlotsOperation } from './slot-operations.js';
import {
  createTimeOffOperation,
  deleteTimeOffOperation,
  getTimeOffOperation,
  listTimeOffOperation,
  updateTimeOffOperation,
} from './time-off-operations.js';
import { bookTimeOperation, findTimesOperation } from './time-operations.js';
import { createTokenOperation, getTokenOperation, listTokensOperation, revokeTokenOperation } from './token-operations.js';
import {
  createWebhookOperation,
  deleteWebhookOperation,
  getWebhookOperation,
  listWebhookDeliveriesOperation,
  listWebhooksOperation,
  redeliverWebhookDeliveryOperation,
  rotateWebhookSecretOperation,
  testWebhookOperation,
  updateWebhookOperation,
} from './webhook-operations.js';

/**
 * Every operation of the API, in the order docs/api lists them (webhooks as
 * docs/webhooks.md does, calendar accounts as docs/calendars.md), then the
 * directory, then the self-service resources as docs/api's pages on them
 * do: event types, working hours, time off, people and tokens. `Operation<any>`: each takes its own input,
 * which no one type covers; `as const` keeps each name a literal.
 */
export const operations = [
  listSeriesOperation,
  getSeriesOperation,
  createSeriesOperation,
  previewSeriesOperation,
  pauseSeriesOperation,
  resumeSeriesOperation,
  endSeriesOperation,
  changeSeriesHostOperation,
  updateSeriesOperation,
  listBookingsOperation,
  getBookingOperation,
  createBookingOperation,
  cancelBookingOperation,
  rescheduleBookingOperation,
  confirmBookingOperation,
  declineBookingOperation,
  reassignBookingOperation,
  updateBookingOperation,
  markNoShowOperation,
  clearNoShowOperation,
  listSlotsOperation,
  checkSlotOperation,
  createHoldOperation,
  releaseHoldOperation,
  findTimesOperation,
  bookTimeOperation,
  listWebhooksOperation,
  getWebhookOperation,
  createWebhookOperation,
  updateWebhookOperation,
  deleteWebhookOperation,
  rotateWebhookSecretOperation,
  listWebhookDeliveriesOperation,
  redeliverWebhookDeliveryOperation,
  testWebhookOperation,
  listCalendarsOperation,
  getCalendarOperation,
  addCalendarOperation,
  removeCalendarOperation,
  testCalendarOperation,
  resyncCalendarOperation,
  whoamiOperation,
  listPeopleOperation,
  listEventTypesOperation,
  getEventTypeOperation,
  createEventTypeOperation,
  updateEventTypeOperation,
  deleteEventTypeOperation,
  getAvailabilityOperation,
  replaceAvailabilityOperation,
  addAvailabilityOverrideOperation,
  removeAvailabilityOverrideOperation,
  listTimeOffOperation,
  getTimeOffOperation,
  createTimeOffOperation,
  updateTimeOffOperation,
  deleteTimeOffOperation,
  getPersonOperation,
  createPersonOperation,
  updatePersonOperation,
  deactivatePersonOperation,
  reactivatePersonOperation,
  listTokensOperation,
  getTokenOperation,
  createTokenOperation,
  revokeTokenOperation,
] as const satisfies readonly Operation<any>[];

/** The name of an operation, as HTTP logs it, MCP calls it a tool and the CLI calls it. */
export type OperationName = (typeof operations)[number]['name'];

type NamedOperation = Operation<unknown, OperationName>;

// `fromEntries` types its keys as string; its entries are the operations above, one per name.
/** The operations by name: every name has one, so a lookup cannot miss. */
export const operationsByName = Object.fromEntries(operations.map((operation) => [operation.name, operation])) as Readonly<
  Record<OperationName, NamedOperation>
>;
