import { DAY_MS } from '../../time.js';
import type { Interval } from '../busy.js';

/**
 * A calendar read covers a day before now to 92 days ahead: every slot list
 * of up to 31 days within the default 60-day booking horizon, and every
 * later check of one of its slots (which searches 7 days on), lies inside
 * it, so they share one read.
 */
export const BUSY_WINDOW_AHEAD_DAYS = 92;

/** Windows kept per calendar: the standard one, and a few of ranges outside it. */
export const MAX_BUSY_WINDOWS = 8;

/** Whether `window` holds all of `range`. */
export function holds(window: Interval, range: Interval): boolean {
  return window.startMs <= range.startMs && range.endMs <= window.endMs;
}

/** The window a read of `range` covers: the standard one around now when it holds the range, else the range itself (a series far ahead). */
export function busyWindow(range: Interval, nowMs: number, aheadMs = BUSY_WINDOW_AHEAD_DAYS * DAY_MS): Interval {
  const standard = { startMs: nowMs - DAY_MS, endMs: nowMs + aheadMs };
  return holds(standard, range) ? standard : range;
}
