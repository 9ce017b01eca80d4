import {
  cancelBookingOperation,
  createBookingOperation,
  getBookingOperation,
  listBookingsOperation,
  rescheduleBookingOperation,
  updateBookingOperation,
} from './booking-operations.js';
import { listEventTypesOperation, listPeopleOperation, whoamiOperation } from './directory-operations.js';
import type { Operation } from './operation.js';
import {
  changeSeriesHostOperation,
  createSeriesOperation,
  endSeriesOperation,
  getSeriesOperation,
  listSeriesOperation,
  pauseSeriesOperation,
  resumeSeriesOperation,
  updateSeriesOperation,
} from './series-operations.js';
import { checkSlotOperation, listSlotsOperation } from './slot-operations.js';

/** Every operation of the API, in the order api.md lists them, then the directory (not in api.md). */
export const operations: readonly Operation<any>[] = [
  listSeriesOperation,
  getSeriesOperation,
  createSeriesOperation,
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
  updateBookingOperation,
  listSlotsOperation,
  checkSlotOperation,
  whoamiOperation,
  listPeopleOperation,
  listEventTypesOperation,
];
