import { insertBooking, prepareBooking } from '../bookings/create-booking.js';
import { mapLockTimeout } from '../storage/host-lock.js';
import { bookingWarnings, chosenOption, releaseSiblingHolds } from '../times/book-time.js';
import { findTimes, holdTimes } from '../times/find-times.js';
import { hostZone } from '../times/host-zone.js';
import { localTime } from '../times/local-time.js';
import { bookTimeBodySchema, findTimesBodySchema } from '../times/times-input.js';
import { type BookedTime, bookedTimeSchema, timeOptionsSchema } from '../times/times-view.js';
import { parseBody } from '../validation/parse-body.js';
import { createBookingOperation, writeDeps } from './booking-operations.js';
import { defineOperation } from './operation.js';

// A model's way to book in two calls (docs/api/times.md): find a few
// options in the attendee's terms, each held, then book one by its id.
export const findTimesOperation = defineOperation({
  name: 'find_times',
  method: 'POST',
  path: '/v1/times/find',
  scope: 'slots:read',
  // It writes holds: a retry with the same key answers the same options rather than holding more.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['validation_error', 'person_not_found', 'event_type_not_found', 'availability_unavailable', 'slot_lock_timeout'],
  schemas: { params: [], input: findTimesBodySchema, output: timeOptionsSchema, list: false },
  parse: (call) => parseBody(findTimesBodySchema, call.body),
  async run(ctx, body) {
    const deps = writeDeps(ctx);
    const found = await findTimes(deps, ctx.principal, body);
    // One write even when nothing is held: a retry with the same key answers the same options either way.
    return mapLockTimeout(() => ctx.write(async (trx) => ({ status: 200, data: await holdTimes(trx, deps, ctx.principal, found) })));
  },
});

export const bookTimeOperation = defineOperation({
  name: 'book_time',
  method: 'POST',
  path: '/v1/times/book',
  scope: 'bookings:create',
  idempotencyKey: 'required',
  ifMatch: 'none',
  // A create's own refusals, but for a host named (an option names none) and an expired hold (its start is booked without it).
  errors: createBookingOperation.errors.filter((code) => code !== 'host_not_allowed' && code !== 'hold_expired'),
  schemas: { params: [], input: bookTimeBodySchema, output: bookedTimeSchema, list: false },
  parse: (call) => parseBody(bookTimeBodySchema, call.body),
  async run(ctx, body) {
    const deps = writeDeps(ctx);
    const chosen = await chosenOption(deps.db, ctx.principal, body, deps.clock.now());
    const prepared = await prepareBooking(deps, ctx.principal, chosen.body);
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const booking = await insertBooking(trx, deps, chosen.body, prepared);
        if (chosen.hold !== undefined) await releaseSiblingHolds(trx, chosen.hold);
        const startMs = Date.parse(booking.start_at);
        const data: BookedTime = {
          uid: booking.uid,
          version: booking.version,
          status: booking.status,
          title: booking.title,
          start_at: booking.start_at,
          end_at: booking.end_at,
          // The booking is shown in its attendee's zone: book_time sends no zone of its own (times-input.ts).
          attendee_time: localTime(startMs, booking.timezone),
          host_time: localTime(startMs, await hostZone(trx, booking.host.user_id)),
          hosts: booking.hosts.map((host) => host.username),
          location_url: booking.location.url,
          warnings: await bookingWarnings(trx, booking),
        };
        return { status: 201, data, version: booking.version, location: `/v1/bookings/${booking.uid}` };
      }),
    );
  },
});
