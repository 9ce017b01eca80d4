import { confirmBooking, declineBooking } from '../bookings/answer-request.js';
import {
  cancelBookingBodySchema,
  createBookingBodySchema,
  declineBookingBodySchema,
  rescheduleBookingBodySchema,
} from '../bookings/booking-input.js';
import { toBooking } from '../bookings/booking-rows.js';
import { bookingSchema } from '../bookings/booking-view.js';
import { cancelBooking } from '../bookings/cancel-booking.js';
import { insertBooking, prepareBooking } from '../bookings/create-booking.js';
import { findVisibleBooking } from '../bookings/find-booking.js';
import { listBookings, listBookingsQuerySchema } from '../bookings/list-bookings.js';
import { clearNoShow, markNoShow, noShowBodySchema } from '../bookings/no-show.js';
import { prepareReassign, reassignBooking, reassignBookingBodySchema } from '../bookings/reassign-booking.js';
import { moveBooking, prepareMove } from '../bookings/reschedule-booking.js';
import { parseUpdateBookingBody, updateBooking, updateBookingBodySchema } from '../bookings/update-booking.js';
import { parseQuery } from '../pagination/query-params.js';
import { mapLockTimeout } from '../storage/host-lock.js';
import { parseBody } from '../validation/parse-body.js';
import { pathParam, requiredIfMatch, sentIfMatch } from './call-parts.js';
import { defineOperation, type ListOutcome, listOutcome, type OperationContext } from './operation.js';

export const listBookingsOperation = defineOperation({
  name: 'list_bookings',
  method: 'GET',
  path: '/v1/bookings',
  scope: 'bookings:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], input: listBookingsQuerySchema, output: bookingSchema, list: true },
  parse: (call) => parseQuery(listBookingsQuerySchema, call.query),
  async run(ctx, query): Promise<ListOutcome> {
    return listOutcome(await listBookings(ctx.deps, ctx.principal, query));
  },
});

export const getBookingOperation = defineOperation({
  name: 'get_booking',
  method: 'GET',
  path: '/v1/bookings/:uid',
  scope: 'bookings:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['booking_not_found'],
  schemas: { params: ['uid'], output: bookingSchema, list: false },
  parse: (call) => ({ uid: pathParam(call.params, 'uid') }),
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
  errors: ['field_immutable', 'validation_error', 'booking_not_found', 'version_conflict'],
  schemas: { params: ['uid'], input: updateBookingBodySchema, output: bookingSchema, list: false },
  parse: (call) => ({
    uid: pathParam(call.params, 'uid'),
    ifMatch: requiredIfMatch(call),
    patch: parseUpdateBookingBody(call.body),
  }),
  async run(ctx, { uid, ifMatch, patch }) {
    return ctx.write(async (trx) => {
      const booking = await updateBooking(trx, ctx.deps, ctx.principal, uid, ifMatch, patch);
      return { status: 200, data: booking, version: booking.version };
    });
  },
});

/** The booking-write dependencies of an operation's deps (a booking's, a hold's, a found time's). */
export function writeDeps(ctx: OperationContext) {
  const { store, clock, ids, calendars, conferenceLinks } = ctx.deps;
  return { db: store.db, dialect: store.dialect, clock, ids, calendars, conferenceLinks };
}

export const createBookingOperation = defineOperation({
  name: 'create_booking',
  method: 'POST',
  path: '/v1/bookings',
  scope: 'bookings:create',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: [
    'validation_error',
    'attendee_email_invalid',
    'event_type_not_found',
    'event_type_inactive',
    'slot_in_past',
    'availability_unavailable',
    'slot_unavailable',
    'hold_not_found',
    'hold_expired',
    'hold_mismatch',
    'host_not_allowed',
    'slot_lock_timeout',
  ],
  schemas: { params: [], input: createBookingBodySchema, output: bookingSchema, list: false },
  parse: (call) => parseBody(createBookingBodySchema, call.body),
  async run(ctx, body) {
    const deps = writeDeps(ctx);
    const prepared = await prepareBooking(deps, ctx.principal, body);
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const booking = await insertBooking(trx, deps, body, prepared);
        return { status: 201, data: booking, version: booking.version, location: `/v1/bookings/${booking.uid}` };
      }),
    );
  },
});

export const cancelBookingOperation = defineOperation({
  name: 'cancel_booking',
  method: 'POST',
  path: '/v1/bookings/:uid/cancel',
  scope: 'bookings:cancel',
  idempotencyKey: 'required',
  ifMatch: 'none',
  // version_conflict: another write to the booking landed between its read and this one.
  errors: ['validation_error', 'booking_not_found', 'booking_in_past', 'cancel_notice', 'version_conflict'],
  schemas: { params: ['uid'], input: cancelBookingBodySchema, output: bookingSchema, list: false },
  parse: (call) => ({ uid: pathParam(call.params, 'uid'), body: parseBody(cancelBookingBodySchema, call.body) }),
  async run(ctx, { uid, body }) {
    return ctx.write(async (trx) => {
      const booking = await cancelBooking(trx, ctx.deps, ctx.principal, uid, body);
      return { status: 200, data: booking, version: booking.version };
    });
  },
});

/** The write of confirm and decline: the host's answer to a pending booking (bookings/answer-request.ts). */
const ANSWER = {
  method: 'POST',
  // Answering for the host changes the booking as a PATCH does; the booking page's visitor holds no such scope.
  scope: 'bookings:update',
  idempotencyKey: 'required',
  ifMatch: 'optional',
  errors: ['validation_error', 'booking_not_found', 'booking_not_pending', 'version_conflict'],
} as const;

export const confirmBookingOperation = defineOperation({
  ...ANSWER,
  name: 'confirm_booking',
  path: '/v1/bookings/:uid/confirm',
  schemas: { params: ['uid'], output: bookingSchema, list: false },
  parse: (call) => ({ uid: pathParam(call.params, 'uid'), ifMatch: sentIfMatch(call) }),
  async run(ctx, { uid, ifMatch }) {
    return ctx.write(async (trx) => {
      const booking = await confirmBooking(trx, answerDeps(ctx), ctx.principal, uid, ifMatch);
      return { status: 200, data: booking, version: booking.version };
    });
  },
});

export const declineBookingOperation = defineOperation({
  ...ANSWER,
  name: 'decline_booking',
  path: '/v1/bookings/:uid/decline',
  schemas: { params: ['uid'], input: declineBookingBodySchema, output: bookingSchema, list: false },
  parse: (call) => ({
    uid: pathParam(call.params, 'uid'),
    ifMatch: sentIfMatch(call),
    body: parseBody(declineBookingBodySchema, call.body),
  }),
  async run(ctx, { uid, ifMatch, body }) {
    return ctx.write(async (trx) => {
      const booking = await declineBooking(trx, answerDeps(ctx), ctx.principal, uid, ifMatch, body);
      return { status: 200, data: booking, version: booking.version };
    });
  },
});

export const reassignBookingOperation = defineOperation({
  name: 'reassign_booking',
  method: 'POST',
  path: '/v1/bookings/:uid/reassign',
  // Handing a booking to another host changes it as a PATCH does, for the host it leaves.
  scope: 'bookings:update',
  idempotencyKey: 'required',
  ifMatch: 'optional',
  errors: [
    'validation_error',
    'booking_not_found',
    'booking_already_cancelled',
    'booking_in_past',
    'invalid_change',
    'host_not_allowed',
    'availability_unavailable',
    'slot_unavailable',
    'slot_lock_timeout',
    'version_conflict',
  ],
  schemas: { params: ['uid'], input: reassignBookingBodySchema, output: bookingSchema, list: false },
  parse: (call) => ({
    uid: pathParam(call.params, 'uid'),
    ifMatch: sentIfMatch(call),
    body: parseBody(reassignBookingBodySchema, call.body),
  }),
  async run(ctx, { uid, ifMatch, body }) {
    const deps = { ...writeDeps(ctx) };
    const prepared = await prepareReassign(deps, ctx.principal, uid, body);
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const booking = await reassignBooking(trx, deps, ctx.principal, prepared, ifMatch, body);
        return { status: 200, data: booking, version: booking.version };
      }),
    );
  },
});

function answerDeps(ctx: OperationContext) {
  return { clock: ctx.deps.clock, ids: ctx.deps.ids, dialect: ctx.deps.store.dialect };
}

export const rescheduleBookingOperation = defineOperation({
  name: 'reschedule_booking',
  method: 'POST',
  path: '/v1/bookings/:uid/reschedule',
  scope: 'bookings:reschedule',
  idempotencyKey: 'required',
  ifMatch: 'none',
  // version_conflict: another write to the booking landed between its read and this one.
  errors: [
    'validation_error',
    'booking_not_found',
    'booking_already_cancelled',
    'booking_in_past',
    'reschedule_not_allowed',
    'reschedule_notice',
    'slot_in_past',
    'availability_unavailable',
    'slot_unavailable',
    'slot_lock_timeout',
    'version_conflict',
  ],
  schemas: { params: ['uid'], input: rescheduleBookingBodySchema, output: bookingSchema, list: false },
  parse: (call) => ({ uid: pathParam(call.params, 'uid'), body: parseBody(rescheduleBookingBodySchema, call.body) }),
  async run(ctx, { uid, body }) {
    const deps = writeDeps(ctx);
    const move = await prepareMove(deps, ctx.principal, uid, body);
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const booking = await moveBooking(trx, deps, ctx.principal, move, body);
        return { status: 200, data: booking, version: booking.version };
      }),
    );
  },
});

// A no-show is the host's record about the attendee: the booking page's visitor (the attendee) holds no
// bookings:update and so cannot set or clear one (auth/visitor.ts). If-Match is taken when sent.
const NO_SHOW_ERRORS = ['booking_not_found', 'booking_already_cancelled', 'booking_not_started', 'version_conflict'] as const;

export const markNoShowOperation = defineOperation({
  name: 'mark_no_show',
  method: 'POST',
  path: '/v1/bookings/:uid/no-show',
  scope: 'bookings:update',
  idempotencyKey: 'required',
  ifMatch: 'optional',
  errors: ['validation_error', ...NO_SHOW_ERRORS],
  schemas: { params: ['uid'], input: noShowBodySchema, output: bookingSchema, list: false },
  parse: (call) => ({ uid: pathParam(call.params, 'uid'), ifMatch: sentIfMatch(call), body: parseBody(noShowBodySchema, call.body) }),
  async run(ctx, { uid, ifMatch, body }) {
    return ctx.write(async (trx) => {
      const booking = await markNoShow(trx, ctx.deps, ctx.principal, uid, ifMatch, body);
      return { status: 200, data: booking, version: booking.version };
    });
  },
});

export const clearNoShowOperation = defineOperation({
  name: 'clear_no_show',
  method: 'DELETE',
  path: '/v1/bookings/:uid/no-show',
  scope: 'bookings:update',
  idempotencyKey: 'optional',
  ifMatch: 'optional',
  errors: [...NO_SHOW_ERRORS],
  schemas: { params: ['uid'], output: bookingSchema, list: false },
  parse: (call) => ({ uid: pathParam(call.params, 'uid'), ifMatch: sentIfMatch(call) }),
  async run(ctx, { uid, ifMatch }) {
    return ctx.write(async (trx) => {
      const booking = await clearNoShow(trx, ctx.deps, ctx.principal, uid, ifMatch);
      return { status: 200, data: booking, version: booking.version };
    });
  },
});
