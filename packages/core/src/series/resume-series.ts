import type { Principal } from '../auth/principal.js';
import { type IfMatch, matchesVersion } from '../conditional.js';
import { ScheduleError } from '../errors.js';
import { recordEvent } from '../outbox/record-event.js';
import { toTimestamp } from '../time.js';
import { countOwed } from './owed.js';
import { previewTargets, readTargets, replaceOwed, seriesBookingOf } from './replace-owed.js';
import { type Finish, finishAction, startAction } from './series-action.js';
import type { SeriesDeps } from './series-deps.js';
import { findVisibleSeries, loadSeries, patternOf, toSeries } from './series-rows.js';
import { statusOnFinish, statusOnStart } from './series-state.js';
import type { ResumeResult } from './series-view.js';

/** `409 version_conflict` for an If-Match the series has moved past. */
export function versionConflict(current: number): ScheduleError {
  return new ScheduleError('version_conflict', 'The series changed since it was read; read it again and retry.', {
    current_version: current,
  });
}

/**
 * `POST /v1/series/:uid/resume`: books one replacement per owed entry where
 * the host is free (replace-owed.ts); the series becomes active once nothing
 * is owed. With `If-Match`, a resume that another change overtook is
 * refused; without, the series is resumed as it now is.
 */
export async function resumeSeries(
  deps: SeriesDeps,
  principal: Principal,
  uid: string,
  ifMatch: IfMatch | undefined,
  finish: Finish<ResumeResult>,
): Promise<ResumeResult> {
  const row = await findVisibleSeries(deps.store.db, principal, uid);
  // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: for any action but an end only the status counts here (ended refuses), so neither the action's name nor the unfinished-end flag changes the answer; startAction checks again with its own.
  statusOnStart('resume', row.status, row.ending === 1);
  if (ifMatch && !matchesVersion(ifMatch, row.version)) throw versionConflict(row.version);

  const booking = await seriesBookingOf(deps.store.db, row);
  const read = await readTargets(deps, booking, await previewTargets(deps, row.uid, patternOf(row)));
  const started = await startAction(deps, 'resume', row.uid, (_trx, current) => {
    if (ifMatch && !matchesVersion(ifMatch, current.version)) throw versionConflict(current.version);
    return {};
  });
  const replaced = await replaceOwed(deps, started, booking, read, 0);

  return finishAction(deps, started, finish, async (trx, owns) => {
    const owed = await countOwed(trx, row.uid);
    if (owns) {
      const status = statusOnFinish('resume', started.series.status, owed);
      if (status !== started.series.status) {
        await trx
          .updateTable('series')
          .set({ status, updated_at: toTimestamp(deps.clock.now()) })
          .where('uid', '=', row.uid)
          .execute();
      }
      await recordEvent(trx, deps, 'series.resumed', row.uid, {
        ...toSeries(await loadSeries(trx, row.uid)),
        created: replaced.created,
        owed,
      });
    }
    return { created: replaced.created, skipped: replaced.skipped, owed, superseded: !owns };
  });
}
