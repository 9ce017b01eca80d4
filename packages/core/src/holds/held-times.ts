import { runPrepared } from '../storage/prepared-query.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/**
 * What a reader of availability knows about holds: the instant that decides
 * which are still live, and whose holds it leaves out (holder.ts ownHolds).
 * A hold is live while `now < expires_at`; from its expiry on, every reader
 * ignores its row, so expiry needs no sweep.
 */
export interface HoldReader {
  readonly nowMs: number;
  readonly holder: string;
}

/**
 * The host's live holds of others overlapping a window given by
 * overlapBounds (availability/load-host-time.ts): the same bounds and range
 * scan as the host's bookings, since a hold is at most a booking long.
 */
export const overlappingHolds = (
  db: Executor,
  hostId: string,
  lowest: string,
  before: string,
  after: string,
  now: string,
  holder: string,
) =>
  db
    .selectFrom('holds')
    .select(['start_at', 'end_at', 'event_type_id'])
    .where('host_user_id', '=', hostId)
    .where('start_at', '>', lowest)
    .where('start_at', '<', before)
    .where('end_at', '>', after)
    .where('expires_at', '>', now)
    .where('holder', '<>', holder);

/** The host's held times overlapping the bounds, except the reader's own. */
export async function heldTimes(
  db: Executor,
  hostId: string,
  bounds: readonly [lowest: string, before: string, after: string],
  reader: HoldReader,
): Promise<{ startMs: number; endMs: number; eventTypeId: string }[]> {
  const rows = await runPrepared(db, overlappingHolds, [hostId, ...bounds, toTimestamp(reader.nowMs), reader.holder]);
  return rows.map((r) => ({ startMs: Date.parse(r.start_at), endMs: Date.parse(r.end_at), eventTypeId: r.event_type_id }));
}
