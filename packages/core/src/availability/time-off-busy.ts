import { runPrepared } from '../storage/prepared-query.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { Interval } from './busy.js';

/**
 * The host's time off overlapping a window: a range ending after the window
 * starts and starting before it ends. Ends are exclusive, as a booking's are,
 * so a range ending at 12:00 leaves a 12:00 slot free.
 */
export const overlappingTimeOff = (db: Executor, userId: string, windowStart: string, windowEnd: string) =>
  db
    .selectFrom('time_off')
    .select(['start_at', 'end_at'])
    .where('user_id', '=', userId)
    // A short range scan of (user_id, end_at): ranges that ended before the window are never read (migration 0010).
    .where('end_at', '>', windowStart)
    .where('start_at', '<', windowEnd);

/** The host's time off across `window`, as busy intervals (docs/api/time-off.md). */
export async function timeOffBusy(db: Executor, userId: string, window: Interval): Promise<Interval[]> {
  const rows = await runPrepared(db, overlappingTimeOff, [userId, toTimestamp(window.startMs), toTimestamp(window.endMs)]);
  return rows.map((r) => ({ startMs: Date.parse(r.start_at), endMs: Date.parse(r.end_at) }));
}
