import { describe, expect, it } from 'vitest';
import { ScheduleError } from '../src/errors.js';
import { type SeriesAction, statusOnFinish, statusOnStart } from '../src/series/series-state.js';
import type { SeriesStatus } from '../src/series/series-view.js';

// docs/api/series.md "States", the transition table itself: what each
// action's first write and last step leave, for every status it can meet.

const ACTIONS: SeriesAction[] = ['pause', 'resume', 'end', 'change_host', 'update'];

/** The status statusOnStart answers, or the code it refuses with. */
function started(action: SeriesAction, from: SeriesStatus, endUnfinished: boolean): string {
  try {
    return statusOnStart(action, from, endUnfinished);
  } catch (error) {
    if (error instanceof ScheduleError) return `refused: ${error.code}`;
    throw error;
  }
}

describe('the series transition table', () => {
  it('the first write: pause makes paused, end makes ended, the others keep the status', () => {
    const table = ACTIONS.map((action) => [action, started(action, 'active', false), started(action, 'paused', false)]);
    expect(table).toEqual([
      ['pause', 'paused', 'paused'],
      ['resume', 'active', 'paused'],
      ['end', 'ended', 'ended'],
      ['change_host', 'active', 'paused'],
      ['update', 'active', 'paused'],
    ]);
  });

  it('ended is terminal: every action is refused series_ended, except an end run again to finish an unfinished end', () => {
    expect(ACTIONS.map((action) => [action, started(action, 'ended', false), started(action, 'ended', true)])).toEqual([
      ['pause', 'refused: series_ended', 'refused: series_ended'],
      ['resume', 'refused: series_ended', 'refused: series_ended'],
      ['end', 'refused: series_ended', 'ended'],
      ['change_host', 'refused: series_ended', 'refused: series_ended'],
      ['update', 'refused: series_ended', 'refused: series_ended'],
    ]);
    // The flag says nothing outside an ended series.
    expect(ACTIONS.map((action) => started(action, 'active', true))).toEqual(['paused', 'active', 'ended', 'active', 'active']);
  });

  it('the last step: only a resume that left nothing owed turns a paused series active', () => {
    expect(statusOnFinish('resume', 'paused', 0)).toBe('active');
    expect(statusOnFinish('resume', 'paused', 1)).toBe('paused');
    expect(statusOnFinish('resume', 'active', 2)).toBe('active');
    expect(statusOnFinish('resume', 'ended', 0)).toBe('ended');
    for (const action of ACTIONS.filter((a) => a !== 'resume')) {
      expect([
        action,
        statusOnFinish(action, 'paused', 0),
        statusOnFinish(action, 'active', 0),
        statusOnFinish(action, 'ended', 0),
      ]).toEqual([action, 'paused', 'active', 'ended']);
    }
  });
});
