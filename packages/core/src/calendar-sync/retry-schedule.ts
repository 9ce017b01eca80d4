/**
 * How long after each failed attempt to write a booking's event the next
 * one is made: soon at first (a calendar restarting), then further apart
 * (an outage), about nine hours in all. After the last the booking's sync is
 * `failed`; its next change queues it again.
 */
export const CALENDAR_RETRY_DELAYS_MS: readonly number[] = [5_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];

/** When the attempt after `failedAttempts` failures is due, or null when none is left. */
export function nextAttemptDelay(failedAttempts: number, delaysMs: readonly number[]): number | null {
  return delaysMs[failedAttempts - 1] ?? null;
}
