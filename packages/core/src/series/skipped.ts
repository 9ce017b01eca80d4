import { toTimestamp } from '../time.js';
import type { PatternInstant } from './pattern.js';
import type { Skipped } from './series-view.js';

/** A skipped entry of docs/api/choices.md: the civil date in the series zone, the instant, and `conflict`. */
export function createSkipped(instant: PatternInstant): Skipped {
  return { date: instant.date, start_at: toTimestamp(instant.instantMs), reason: 'conflict' };
}
