import type { Principal } from '../auth/principal.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import type { HoldsTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import { type Hold, toHold } from './hold-view.js';
import { holderOf } from './holder.js';

function holdNotFound(id: string): ScheduleError {
  return new ScheduleError('hold_not_found', 'No hold with this id.', { hold_id: id });
}

/**
 * The caller's hold with this id. Anyone else's, an unknown id and a
 * malformed one all answer `404 hold_not_found`, so holds cannot be probed.
 */
async function findOwnHold(db: Executor, principal: Principal, id: string): Promise<HoldsTable> {
  const holder = holderOf(principal);
  if (!isUuid(id) || holder === null) throw holdNotFound(id);
  const row = await db.selectFrom('holds').selectAll().where('id', '=', id.toLowerCase()).where('holder', '=', holder).executeTakeFirst();
  if (row === undefined) throw holdNotFound(id);
  return row;
}

/**
 * Whether the caller's live hold `id` vouches for this booking: `409
 * hold_expired` once past its expiry, `409 hold_mismatch` when it holds
 * another event type or start. A hold vouches for everything availability
 * decides (working hours, the grid, notice, calendars, others' bookings) as
 * of when it was made; false when the event type's length changed since,
 * so the time past the held end is checked as any booking's is.
 */
export async function holdVouches(
  db: Executor,
  principal: Principal,
  id: string,
  booking: { eventTypeId: string; startMs: number; endMs: number; nowMs: number },
): Promise<boolean> {
  const hold = await findOwnHold(db, principal, id);
  if (hold.expires_at <= toTimestamp(booking.nowMs)) throw holdExpired(hold);
  if (hold.event_type_id !== booking.eventTypeId || hold.start_at !== toTimestamp(booking.startMs)) {
    throw new ScheduleError('hold_mismatch', 'The hold is for another event type or start than this booking.', {
      hold_id: hold.id,
      event_type_id: hold.event_type_id,
      start: hold.start_at,
    });
  }
  return hold.end_at === toTimestamp(booking.endMs);
}

function holdExpired(hold: { id: string; expires_at: string }): ScheduleError {
  return new ScheduleError('hold_expired', 'The hold expired; hold the time again or book without it.', {
    hold_id: hold.id,
    expires_at: hold.expires_at,
  });
}

/**
 * Deletes the hold a booking turns into, in the booking's transaction under
 * the host's lock. `409 hold_expired` when it expired or was released since
 * it was checked: the booking is not made on a hold that no longer stands.
 */
export async function useHold(trx: Executor, id: string, nowMs: number): Promise<void> {
  const deleted = await trx.deleteFrom('holds').where('id', '=', id).where('expires_at', '>', toTimestamp(nowMs)).executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw holdExpired({ id, expires_at: toTimestamp(nowMs) });
}

/**
 * `DELETE /v1/holds/:id`: frees the caller's hold at once and answers it,
 * live or already expired (either way its time is free after); anyone
 * else's is 404.
 */
export async function releaseHold(trx: Executor, principal: Principal, id: string): Promise<Hold> {
  const hold = await findOwnHold(trx, principal, id);
  await trx.deleteFrom('holds').where('id', '=', hold.id).execute();
  return toHold(hold);
}
