import type { Principal } from '../auth/principal.js';
import { ScheduleError } from '../errors.js';
import { isUuid } from '../ids.js';
import { runPrepared } from '../storage/prepared-query.js';
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
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a malformed id or a null holder matches no row, and the same 404 follows; the guard spares the read.
  if (!isUuid(id) || holder === null) throw holdNotFound(id);
  const row = await db.selectFrom('holds').selectAll().where('id', '=', id.toLowerCase()).where('holder', '=', holder).executeTakeFirst();
  if (row === undefined) throw holdNotFound(id);
  return row;
}

/**
 * Uses up the caller's hold `id` for a booking of this event type, start and
 * end, in the booking's transaction under the host's lock: its row is
 * deleted, and the refusals below roll that back. `404 hold_not_found` for
 * anyone else's or an unknown id; `409 hold_expired` from its expiry on (or
 * once released); `409 hold_mismatch` when it holds another event type or
 * start, or the event type's length changed since. A hold that passes
 * vouches for everything availability decided when it was made (working
 * hours, the grid, notice, calendars); the booking's own write still checks
 * the host's bookings and others' holds.
 */
export async function useHold(
  trx: Executor,
  holder: string,
  id: string,
  booking: { eventTypeId: string; startMs: number; endMs: number; nowMs: number },
): Promise<void> {
  const [hold] = await runPrepared(trx, deleteOwnHold, [id, holder]);
  if (hold === undefined) throw holdNotFound(id);
  if (hold.expires_at <= toTimestamp(booking.nowMs)) throw holdExpired(hold);
  const start = toTimestamp(booking.startMs);
  // Stryker disable next-line ConditionalExpression: equivalent for the start's test alone: of one event type, another start gives another end, which the last test refuses; the start is named for the reader.
  if (hold.event_type_id !== booking.eventTypeId || hold.start_at !== start || hold.end_at !== toTimestamp(booking.endMs)) {
    throw new ScheduleError('hold_mismatch', 'The hold is for another event type or start than this booking.', {
      hold_id: hold.id,
      event_type_id: hold.event_type_id,
      start: hold.start_at,
    });
  }
}

// Compiled once: a booking with a hold runs it on every create.
const deleteOwnHold = (db: Executor, id: string, holder: string) =>
  db
    .deleteFrom('holds')
    .where('id', '=', id)
    .where('holder', '=', holder)
    .returning(['id', 'event_type_id', 'start_at', 'end_at', 'expires_at']);

function holdExpired(hold: { id: string; expires_at: string }): ScheduleError {
  return new ScheduleError('hold_expired', 'The hold expired; hold the time again or book without it.', {
    hold_id: hold.id,
    expires_at: hold.expires_at,
  });
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
