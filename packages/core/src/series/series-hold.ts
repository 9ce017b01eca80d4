import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { SeriesAction } from './series-state.js';
import type { StepHook } from './series-steps.js';

/**
 * How long a hold lasts unless released: a holder that died (a crashed
 * process, a lost connection) frees the series after this, never earlier.
 */
export const HOLD_LEASE_MS = 30_000;

/** Who holds a series: an action making its first write, or the dispatcher sending a mail. */
export type HolderKind = 'action' | 'mail';

/**
 * How long an action waits for a mail send to finish before answering
 * `409 series_busy`. A mail is handed over in milliseconds, so an action
 * that happens to arrive meanwhile (a pause right after a create, whose
 * confirmation is going out) should not fail for it; a send that takes
 * longer still makes the action busy, as docs/api/choices.md says.
 */
export const MAIL_WAIT_MS = 250;
const MAIL_WAIT_STEP_MS = 10;

/**
 * Holds a series for an action's first write or a mail being sent
 * (docs/api/series.md "Busy and superseded"). The hold is a committed lease on the
 * series row, so it is seen across processes: one conditional update, that
 * only one claimant can win. Answers the hold's token, or undefined when
 * someone else holds the series.
 */
export async function claimHold(
  db: Executor,
  deps: { clock: Clock; ids: IdGenerator },
  seriesUid: string,
  holder: HolderKind,
): Promise<string | undefined> {
  const nowMs = deps.clock.now();
  const token = `${holder}:${deps.ids.uuid()}`;
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

/**
 * Holds a series for an action: claimHold, waiting up to MAIL_WAIT_MS while
 * the holder is a mail being sent. Undefined when it is still held.
 */
export async function claimHoldForAction(
  db: Executor,
  deps: { clock: Clock; ids: IdGenerator; steps?: StepHook | undefined },
  action: SeriesAction,
  seriesUid: string,
): Promise<string | undefined> {
  for (let waited = 0; ; waited += MAIL_WAIT_STEP_MS) {
    // Stryker disable next-line StringLiteral: only a mail's hold is told apart by its token (`mail:`), so an action's token works under any other prefix.
    const token = await claimHold(db, deps, seriesUid, 'action');
    if (token !== undefined || waited >= MAIL_WAIT_MS) return token;
    // The series was just found, and series are never deleted.
    const holder = await db.selectFrom('series').select('hold_token').where('uid', '=', seriesUid).executeTakeFirstOrThrow();
    if (!holder.hold_token?.startsWith('mail:')) return undefined;
    await deps.steps?.({ action, phase: 'waiting', seriesUid });
    await delay(MAIL_WAIT_STEP_MS);
  }
}
