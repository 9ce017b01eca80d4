import type { Principal } from '../auth/principal.js';
import { recordEvent } from '../outbox/record-event.js';
import { holdOccurrence } from './hold-occurrence.js';
import { futureOccurrences } from './occurrences.js';
import { type Finish, finishAction, runItem, startAction } from './series-action.js';
import type { SeriesDeps } from './series-deps.js';
import { findVisibleSeries, loadSeries, toSeries } from './series-rows.js';
import { statusOnStart } from './series-state.js';
import type { PauseResult } from './series-view.js';

/**
 * `POST /v1/series/:uid/pause` (docs/api/series.md "States"): the series
 * becomes paused, then every future, confirmed occurrence the invitee did not
 * move is held, one committed step each, with no mail to the attendee.
 * Repeating it holds what an earlier run did not reach.
 */
export async function pauseSeries(deps: SeriesDeps, principal: Principal, uid: string, finish: Finish<PauseResult>): Promise<PauseResult> {
  const db = deps.store.db;
  const row = await findVisibleSeries(db, principal, uid);
  // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: for any action but an end only the status counts here (ended refuses), so neither the action's name nor the unfinished-end flag changes the answer; startAction checks again with its own.
  statusOnStart('pause', row.status, row.ending === 1);
  // Stryker disable next-line ArrowFunction: no changes and undefined both spread to nothing in the first write.
  const started = await startAction(deps, 'pause', row.uid, () => ({}));

  const toHold = (await futureOccurrences(db, row.uid, deps.clock.now())).filter((o) => o.moved_by_invitee === 0);
  let held = 0;
  for (const [index, occurrence] of toHold.entries()) {
    const step = await runItem(deps, started, index, (trx) => holdOccurrence(trx, deps, occurrence.uid, { action: 'pause' }));
    // Taken over: the epoch moved and never moves back, so the finish no longer owns the series and says superseded.
    if (!step.ran) break;
    if (step.value) held++;
  }

  return finishAction(deps, started, finish, async (trx, owns) => {
    if (owns) {
      await recordEvent(trx, deps, 'series.paused', row.uid, { ...toSeries(await loadSeries(trx, row.uid)), held });
    }
    return { held, superseded: !owns };
  });
}
