/** A half-open span of time `[startMs, endMs)` in epoch milliseconds. */
export interface Interval {
  readonly startMs: number;
  readonly endMs: number;
  /** Set on a calendar's busy time that is the event this service wrote for one of its bookings. */
  readonly bookingUid?: string;
}

/** True when two half-open intervals share any instant. */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.startMs < b.endMs && b.startMs < a.endMs;
}

/** Sorts and merges intervals, so a sweep can test each candidate once. */
export function mergeIntervals(intervals: Iterable<Interval>): Interval[] {
  const sorted = [...intervals].filter((i) => i.endMs > i.startMs).sort((a, b) => a.startMs - b.startMs);
  const merged: Interval[] = [];
  for (const next of sorted) {
    const last = merged.at(-1);
    if (last && next.startMs <= last.endMs) merged[merged.length - 1] = { startMs: last.startMs, endMs: Math.max(last.endMs, next.endMs) };
    else merged.push(next);
  }
  return merged;
}
