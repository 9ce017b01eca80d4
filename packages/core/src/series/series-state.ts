import { ScheduleError } from '../errors.js';
import type { SeriesStatus } from './series-view.js';

/** The actions docs/api allows on an existing series. */
export type SeriesAction = 'pause' | 'resume' | 'end' | 'change_host' | 'update';

function seriesEnded(): ScheduleError {
  return new ScheduleError('series_ended', 'The series is ended; nothing can change it.', {});
}

/**
 * docs/api/series.md "States": the status an action's first write
 * leaves. Ended is terminal: every action answers `409 series_ended`, except
 * that an end whose cancellations were cut short (a crash, a takeover) may be
 * run again to finish them ("a re-run cancels what the first did not reach").
 */
export function statusOnStart(action: SeriesAction, from: SeriesStatus, endUnfinished: boolean): SeriesStatus {
  if (from === 'ended') {
    if (action === 'end' && endUnfinished) return 'ended';
    throw seriesEnded();
  }
  switch (action) {
    case 'pause':
      return 'paused';
    case 'end':
      return 'ended';
    // Resume becomes active only once nothing is owed, which its finish decides.
    case 'resume':
    case 'change_host':
    case 'update':
      return from;
  }
}

/**
 * The status an action's last step leaves: a resume that replaced every owed
 * occurrence makes a paused series active; one that left some owed keeps it
 * paused, and calling resume again converges. A PATCH keeps the status
 * (docs/api/series.md "Owed, held and moved").
 */
export function statusOnFinish(action: SeriesAction, current: SeriesStatus, owed: number): SeriesStatus {
  switch (action) {
    case 'resume':
      return current === 'paused' && owed === 0 ? 'active' : current;
    case 'pause':
    case 'end':
    case 'change_host':
    case 'update':
      return current;
  }
}
