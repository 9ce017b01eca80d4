import type { Principal } from '../../src/auth/principal.js';
import {
  cancelBookingOperation,
  createBookingOperation,
  getBookingOperation,
  rescheduleBookingOperation,
} from '../../src/operations/booking-operations.js';
import { type ExecuteDeps, type Executed, execute } from '../../src/operations/execute.js';
import { checkSlotOperation, listSlotsOperation } from '../../src/operations/slot-operations.js';
import type { Store } from '../../src/storage/store.js';

// The endpoints of the availability and booking-write suites, called the way
// every front end calls them: through `execute` with a raw call.

export type Query = Record<string, unknown>;

export const listSlots = (deps: ExecuteDeps, principal: Principal, query: Query): Promise<Executed> =>
  execute(deps, listSlotsOperation, principal, { params: {}, query, body: undefined }, 'req-slots');

export const checkSlot = (deps: ExecuteDeps, principal: Principal, query: Query): Promise<Executed> =>
  execute(deps, checkSlotOperation, principal, { params: {}, query, body: undefined }, 'req-check');

export const createBooking = (deps: ExecuteDeps, principal: Principal, body: unknown, key = 'key-create'): Promise<Executed> =>
  execute(deps, createBookingOperation, principal, { params: {}, query: {}, body, idempotencyKey: key }, `req-${key}`);

export const cancelBooking = (deps: ExecuteDeps, principal: Principal, uid: string, body: unknown, key = 'key-cancel'): Promise<Executed> =>
  execute(deps, cancelBookingOperation, principal, { params: { uid }, query: {}, body, idempotencyKey: key }, `req-${key}`);

export const rescheduleBooking = (
  deps: ExecuteDeps,
  principal: Principal,
  uid: string,
  body: unknown,
  key = 'key-reschedule',
): Promise<Executed> =>
  execute(deps, rescheduleBookingOperation, principal, { params: { uid }, query: {}, body, idempotencyKey: key }, `req-${key}`);

export const getBooking = async (deps: ExecuteDeps, principal: Principal, uid: string) =>
  (await execute(deps, getBookingOperation, principal, { params: { uid }, query: {}, body: undefined }, 'req-get')).outcome;

/** The outbox rows, oldest first, with their payloads parsed. */
export async function outboxOf(store: Store) {
  const rows = await store.db.selectFrom('outbox').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({
    event_type: r.event_type,
    subject_uid: r.subject_uid,
    created_at: r.created_at,
    dispatched_at: r.dispatched_at,
    payload: JSON.parse(r.payload_json) as Record<string, unknown>,
  }));
}

/** Every booking row, by start, as the overlap and model checks read them. */
export function bookingRowsOf(store: Store) {
  return store.db
    .selectFrom('bookings')
    .select(['uid', 'host_user_id', 'status', 'start_at', 'end_at', 'version'])
    .orderBy('start_at')
    .orderBy('uid')
    .execute();
}
