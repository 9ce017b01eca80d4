import { wallClockToInstant } from '@schedule/core';
import { addDays, localDate, mondayOf } from '../output/zone-time.js';

/** A week in the viewer's zone: its seven civil days and the instants it spans (for `list_slots`). */
export interface Week {
  readonly monday: string;
  readonly days: readonly string[];
  /** Local midnight starting Monday, ISO UTC. */
  readonly start: string;
  /** Local midnight starting the next Monday, ISO UTC. */
  readonly end: string;
}

function midnight(date: string, zone: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  // Core's reading of a wall-clock time: a midnight lost to a DST gap moves forward.
  return new Date(wallClockToInstant({ year, month, day }, 0, 0, zone)).toISOString();
}

/** The week starting on `monday` in `zone`. */
export function weekStarting(monday: string, zone: string): Week {
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  return { monday, days, start: midnight(monday, zone), end: midnight(addDays(monday, 7), zone) };
}

/** The week holding the instant `nowMs` in `zone`. */
export function weekOfInstant(nowMs: number, zone: string): Week {
  return weekStarting(mondayOf(localDate(nowMs, zone)), zone);
}
