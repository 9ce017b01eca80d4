import { toBooking } from '../bookings/booking-rows.js';
import { findVisibleBooking } from '../bookings/find-booking.js';
import { listBookings, listBookingsQuerySchema } from '../bookings/list-bookings.js';
import { parseUpdateBookingBody, updateBooking } from '../bookings/update-booking.js';
import { parseIfMatch } from '../conditional.js';
import { parseQuery } from '../pagination/query-params.js';
import { defineOperation, type ListOutcome } from './operation.js';

export const listBookingsOperation = defineOperation({
  name: 'list_bookings',
  method: 'GET',
  path: '/v1/bookings',
  scope: 'bookings:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  parse: (call) => parseQuery(listBookingsQuerySchema, call.query),
  async run(ctx, query): Promise<ListOutcome> {
    const page = await listBookings(ctx.deps, ctx.principal, query);
    return { status: 200, data: page.items, page: { nextCursor: page.nextCursor, hasMore: page.hasMore } };
  },
});

export const getBookingOperation = defineOperation({
  name: 'get_booking',
  method: 'GET',
  path: '/v1/bookings/:uid',
  scope: 'bookings:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  parse: (call) => ({ uid: call.params.uid ?? '' }),
  async run(ctx, { uid }) {
    const row = await findVisibleBooking(ctx.deps.store.db, ctx.principal, uid);
    return { status: 200, data: toBooking(row, 'single'), version: row.version };
  },
});

export const updateBookingOperation = defineOperation({
  name: 'update_booking',
  method: 'PATCH',
  path: '/v1/bookings/:uid',
  scope: 'bookings:update',
  idempotencyKey: 'required',
  ifMatch: 'required',
  parse: (call) => ({
    uid: call.params.uid ?? '',
    ifMatch: parseIfMatch(call.ifMatch ?? ''),
    patch: parseUpdateBookingBody(call.body),
  }),
  async run(ctx, { uid, ifMatch, patch }) {
    return ctx.write(async (trx) => {
      const booking = await updateBooking(trx, ctx.deps, ctx.principal, uid, ifMatch, patch);
      return { status: 200, data: booking, version: booking.version };
    });
  },
});
