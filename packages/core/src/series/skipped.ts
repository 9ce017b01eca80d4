import { toTimestamp } from '../time.js';
import type { PatternInstant } from './pattern.js';
import type { SkipCause, Skipped } from './series-view.js';

/** A skipped entry of docs/api/choices.md: the civil date in the series zone, the instant, `conflict`, and its cause. */
export function createSkipped(instant: PatternInstant, cause: SkipCause): Skipped {
  return { date: instant.date, start_at: toTimestamp(instant.instantMs), reason: 'conflict', cause };
}
