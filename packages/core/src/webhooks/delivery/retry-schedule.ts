const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * How long after a failed attempt the next one is made (docs/webhooks.md
 * "Retries and auto-pause"): the first attempt goes at once, then these seven
 * follow, each further apart, about 27.6 h in all, so a receiver that is down
 * for a day still gets everything.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/** Attempts a delivery gets before it is failed: the immediate one and one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The longest wait the schedule has; a `Retry-After` never pushes an attempt further out than this. */
export const MAX_RETRY_DELAY_MS = Math.max(...RETRY_DELAYS_MS);

/**
 * The wait before the next attempt after `attemptsMade` attempts failed, or
 * undefined when none is left. A receiver's `Retry-After` wins when it asks
 * for longer than the schedule, up to the schedule's longest wait: a receiver
 * cannot park a delivery for a week, nor hurry one.
 */
export function nextAttemptDelay(attemptsMade: number, retryAfterMs?: number): number | undefined {
  if (attemptsMade >= MAX_ATTEMPTS) return undefined;
  const scheduled = RETRY_DELAYS_MS[attemptsMade - 1]!;
  return retryAfterMs === undefined ? scheduled : Math.max(scheduled, Math.min(retryAfterMs, MAX_RETRY_DELAY_MS));
}
