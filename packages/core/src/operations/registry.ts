import { getBookingOperation, listBookingsOperation, updateBookingOperation } from './booking-operations.js';
import type { Operation } from './operation.js';

/** Every operation of the API, in the order api.md lists them. */
export const operations: readonly Operation<any>[] = [listBookingsOperation, getBookingOperation, updateBookingOperation];
