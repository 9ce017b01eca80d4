import { ScheduleError } from '../errors.js';
import type { SeriesTable } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';
import type { SeriesDeps } from './series-deps.js';
import { claimHoldForAction, releaseHold } from './series-hold.js';
import { loadSeries, type SeriesRow } from './series-rows.js';
import { type SeriesAction, statusOnStart } from './series-state.js';

/** What running a series action needs. */
export type SeriesActionDeps = Pick<SeriesDeps, 'store' | 'clock' | 'ids' | 'steps'>;

/** An action past its first write: it owns the series for as long as the series' epoch is still `epoch`. */
export interface StartedAction {
  readonly action: SeriesAction;
  /** The series as the first write left it. */
  readonly series: SeriesRow;
  readonly epoch: number;
}

function busy(): ScheduleError {
  return new ScheduleError(
    'series_busy',
    'Something holds the series (another action is starting, or a mail about it is being sent); nothing changed. Read the series and retry.',
    {},
  );
}

/**
 * Starts an action (docs/api/series.md "Busy and superseded"): holds the series,
 * then makes the first write in one transaction, which bumps `version` (every
 * action does, even one that then finds nothing to do) and the fencing
 * `epoch`, sets the status the transition table gives, applies `changes`,
 * and lets go of the hold. Held by someone else: `409 series_busy`, nothing
 * changed. From here on, any earlier action still working on this series
 * finds the epoch moved and stops before its next item.
 */
export async function startAction(
  deps: SeriesActionDeps,
  action: SeriesAction,
  seriesUid: string,
  changes: (trx: Executor, current: SeriesRow) => Promise<Partial<SeriesTable>> | Partial<SeriesTable>,
): Promise<StartedAction> {
  const db = deps.store.db;
  const token = await claimHoldForAction(db, deps, action, seriesUid);
  if (token === undefined) throw busy();
  try {
    await deps.steps?.({ action, phase: 'first_write', seriesUid });
    return await db.transaction().execute(async (trx) => {
      // Lock the row before reading anything: an earlier action's item may be
      // mid-commit (its owed entry not yet visible). Taking the lock waits for
      // it, and on PostgreSQL each statement after sees what it committed.
      if (!(await stillHolds(trx, seriesUid, token))) throw busy();
      const current = await loadSeries(trx, seriesUid);
      const status = statusOnStart(action, current.status, current.ending === 1);
      const written = {
        ...(await changes(trx, current)),
        status,
        version: current.version + 1,
        // Stryker disable next-line ArithmeticOperator: the epoch is only ever compared for equality (stillOwns), and counting it down gives each action a value no earlier one had just as counting up does; it is never shown.
        epoch: current.epoch + 1,
        updated_at: toTimestamp(deps.clock.now()),
        hold_token: null,
        hold_until: null,
      } satisfies Partial<SeriesTable>;
      // The row is locked and still held by this holder (stillHolds above).
      await trx.updateTable('series').set(written).where('uid', '=', seriesUid).execute();
      return { action, series: { ...current, ...written }, epoch: written.epoch };
    });
  } catch (error) {
    // Stryker disable next-line ArrowFunction: `() => undefined` swallows the release's own failure just as `() => {}` does; the caller sees the first error either way.
    await releaseHold(db, seriesUid, token).catch(() => {});
    throw error;
  }
}

/** Locks the series row if this holder still holds it (the hold ran out and was taken over otherwise). */
async function stillHolds(trx: Executor, seriesUid: string, token: string): Promise<boolean> {
  const result = await trx
    .updateTable('series')
    .set((eb) => ({ hold_token: eb.ref('hold_token') }))
    .where('uid', '=', seriesUid)
    .where('hold_token', '=', token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * True while `started` still owns the series. Run inside each step's
 * transaction: the conditional update also locks the series row on
 * PostgreSQL, so a later action's first write waits for this step to commit
 * and this step waits for it, across processes: a step never writes after
 * its action was taken over.
 */
export async function stillOwns(trx: Executor, started: StartedAction): Promise<boolean> {
  const result = await trx
    .updateTable('series')
    .set((eb) => ({ epoch: eb.ref('epoch') }))
    .where('uid', '=', started.series.uid)
    .where('epoch', '=', started.epoch)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A step that ran, or found the action taken over before it could. */
export type StepResult<T> = { readonly ran: true; readonly value: T } | { readonly ran: false };

/**
 * Runs one item of a started action as its own committed transaction, if the
 * action still owns the series (docs/api/choices.md: "each item its own committed
 * step"; a taken-over action stops before its next item).
 */
export async function runItem<T>(
  deps: SeriesActionDeps,
  started: StartedAction,
  index: number,
  work: (trx: Executor) => Promise<T>,
): Promise<StepResult<T>> {
  await deps.steps?.({ action: started.action, phase: 'item', seriesUid: started.series.uid, index });
  return deps.store.db.transaction().execute(async (trx) => {
    // Stryker disable next-line ObjectLiteral: `{}` has no `ran` either, which callers read as not run all the same.
    if (!(await stillOwns(trx, started))) return { ran: false };
    return { ran: true, value: await work(trx) };
  });
}

/**
 * Runs the last step of an action in one transaction and gives back its
 * result. Passed in: an operation runs it in its own `write`, which keeps the
 * answer for idempotent replay in that same transaction.
 */
export type Finish<Result> = (work: (trx: Executor) => Promise<Result>) => Promise<Result>;

/**
 * Runs an action's last step in the transaction that also keeps its answer
 * for idempotent replay. `work` learns whether the action still owns the
 * series; one taken over writes nothing more and answers `superseded`.
 */
export async function finishAction<Result>(
  deps: SeriesActionDeps,
  started: StartedAction,
  finish: Finish<Result>,
  work: (trx: Executor, owns: boolean) => Promise<Result>,
): Promise<Result> {
  await deps.steps?.({ action: started.action, phase: 'finish', seriesUid: started.series.uid });
  return finish(async (trx) => work(trx, await stillOwns(trx, started)));
}
