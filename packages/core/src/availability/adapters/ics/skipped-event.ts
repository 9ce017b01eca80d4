// Apart from the reader, which needs ical.js: these types are public, and an
// embedder's type check must not need a driver it did not install.

/** Why an event was left out: its text is not iCalendar, it has no start, a time or rule in it cannot be read, or its occurrences cannot be worked out. */
export type SkipReason = 'unparseable' | 'no_start' | 'bad_value' | 'unexpandable';

/** An event left out of a feed that was otherwise read. Named by UID only: its contents are the host's private business. */
export interface SkippedEvent {
  readonly uid: string;
  readonly reason: SkipReason;
}

/** Where a reader tells the events it left out: the feed or calendar as shown in logs, and what was skipped. */
export type SkippedListener = (source: string, skipped: readonly SkippedEvent[]) => void;

/** Tells `listener` of skipped events; a report that fails (a closed log stream) must not cost the host its busy times. */
export function reportSkipped(listener: SkippedListener | undefined, source: string, skipped: readonly SkippedEvent[]): void {
  try {
    // Stryker disable next-line OptionalChaining: calling an absent listener throws a TypeError the catch below swallows, the same outcome
    listener?.(source, skipped);
  } catch {
    // Swallowed on purpose: see above.
  }
}
