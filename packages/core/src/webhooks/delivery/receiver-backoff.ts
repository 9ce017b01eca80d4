const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** The shortest back-off: about one request's time limit, so a hanging receiver holds its slot at most half the time. */
export const MIN_BACKOFF_MS = 10 * SECOND;

/** The longest back-off: a receiver that hangs for days is still tried every 10 min, and counts towards auto-pause. */
export const MAX_BACKOFF_MS = 10 * MINUTE;

/**
 * How long a webhook whose request just timed out is left alone
 * (docs/webhooks.md "Slow receivers"): as long again as it has been failing,
 * from 10 s to 10 min. Each probe that times out so roughly doubles the wait,
 * and simultaneous timeouts of one webhook agree on it, where a count of
 * failures would grow with every request that was in flight.
 */
export function backoffMs(failingForMs: number): number {
  return Math.min(MAX_BACKOFF_MS, Math.max(MIN_BACKOFF_MS, failingForMs));
}

/** When the back-off ends: never earlier than one already running. */
export function backoffUntil(nowMs: number, failingSinceMs: number, currentUntilMs: number | undefined): number {
  return Math.max(nowMs + backoffMs(nowMs - failingSinceMs), currentUntilMs ?? 0);
}
