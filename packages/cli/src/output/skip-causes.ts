import type { SkipCause } from '@schedule/core';

/** Why a series date is skipped, in a person's words (core's SKIP_CAUSES). */
const CAUSE_TEXT: Record<SkipCause, string> = {
  busy: 'busy (a booking or calendar event)',
  outside_working_hours: 'outside working hours',
  outside_minimum_notice: 'too soon (minimum notice)',
  outside_future_limit: 'too far ahead (future limit)',
  event_type_inactive: 'the event type is switched off',
  series_overlap: 'overlaps the meeting before it',
};

/** `skipped: busy (a booking or calendar event)`; an unknown cause (a newer server) as it came. */
export function skipCauseText(cause: string): string {
  return CAUSE_TEXT[cause as SkipCause] ?? cause;
}
