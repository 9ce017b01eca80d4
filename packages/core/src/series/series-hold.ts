import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

/**
 * How long a hold lasts unless released: a holder that died (a crashed
 * process, a lost connection) frees the series after this, never earlier.
 */
export const HOLD_LEASE_MS = 30_000;

/**
 * Holds a series for an action's first write or a mail being sent
 * (decisions.md "Busy and superseded"). The hold is a committed lease on the
 * series row, so it is seen across processes: one conditional update, that
 * only one claimant can win. Answers the hold's token, or undefined when
 * someone else holds the series.
 */
export async function claimHold(db: Executor, deps: { clock: Clock; ids: IdGenerator }, seriesUid: string): Promise<string | undefined> {
  const nowMs = deps.clock.now();
  const token = deps.ids.uuid();
  const result = await db
    .updateTable('series')
    .set({ hold_token: token, hold_until: toTimestamp(nowMs + HOLD_LEASE_MS) })
    .where('uid', '=', seriesUid)
    .where((eb) => eb.or([eb('hold_until', 'is', null), eb('hold_until', '<=', toTimestamp(nowMs))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? token : undefined;
}

/** Lets go of a hold this holder still has; a hold taken over since is left alone. */
export async function releaseHold(db: Executor, seriesUid: string, token: string): Promise<void> {
  await db
    .updateTable('series')
    .set({ hold_token: null, hold_until: null })
    .where('uid', '=', seriesUid)
    .where('hold_token', '=', token)
    .execute();
}
