import { type Interval, mergeIntervals } from '../availability/busy.js';
import type { CalendarReader } from '../availability/calendar-reader.js';
import { hostBusy, policyOf } from '../availability/load-host-time.js';
import { type HostTime, judgeStart, type SlotPolicy, type StartRules } from '../availability/slot-rules.js';
import type { Clock } from '../clock.js';
import type { EventTypeWithHost, HostRecord } from '../event-types/resolve-event-type.js';
import type { Store } from '../storage/store.js';
import { DAY_MS, MINUTE_MS } from '../time.js';
import type { SkipCause } from './series-view.js';

/**
 * An occurrence's time comes from its pattern, not the event type's slot
 * grid; every other rule of a booking holds (docs/api/choices.md "Series
 * expansion": busy times, buffers, working hours, notice, horizon).
 */
export const OCCURRENCE_RULES: StartRules = { grid: false };

/**
 * Moving an existing occurrence to a new host needs that host working and
 * free at its time; notice and horizon govern new bookings, not a move.
 */
export const HOST_MOVE_RULES: StartRules = { grid: false, bookingWindow: false };

/**
 * A host's time for the instants an action may book: working hours, busy
 * calendar time and time off, notice and horizon, read once. Bookings are not in it: a
 * series checks them under the host's lock, in the transaction that books
 * (create-series.ts, replace-owed.ts, change-host.ts), so reading them here
 * too would only repeat that read, which on a busy host is thousands of rows.
 */
export interface SeriesHostTime {
  readonly time: HostTime;
  /** The starts this read covers; a start outside it needs a new read. */
  readonly covers: Interval;
}

/** The last start the rules allow: the event type's future limit, or none for a move. */
function horizonOf(policy: Pick<SlotPolicy, 'futureLimitDays'>, nowMs: number, rules: StartRules): number {
  return rules.bookingWindow === false ? Number.POSITIVE_INFINITY : nowMs + policy.futureLimitDays * DAY_MS;
}

/**
 * Reads the host's calendars and time off across the given starts, once. Starts past the
 * event type's horizon are never free, so the read stops there. A conflict
 * calendar that cannot be read answers `503 availability_unavailable` before
 * anything is written.
 */
export async function loadSeriesHostTime(
  deps: { clock: Clock; calendars: CalendarReader; store: Store },
  eventType: EventTypeWithHost,
  host: HostRecord,
  startsMs: readonly number[],
  rules: StartRules = OCCURRENCE_RULES,
): Promise<SeriesHostTime> {
  const policy = policyOf(eventType);
  const nowMs = deps.clock.now();
  const horizon = horizonOf(policy, nowMs, rules);
  const reachable = startsMs.filter((ms) => ms <= horizon);
  const time = (busy: Interval[]): HostTime => ({ policy, schedule: host.schedule, zone: host.timezone, busy, nowMs });
  // Stryker disable next-line ArrayDeclaration,ObjectLiteral: a read of no start is used only for starts past the horizon (coversAll sends any other to a new read), which are refused before busy time is looked at; `covers: {}` covers no start, as { 0, 0 } does (the line's other ObjectLiteral mutant, the whole answer emptied, is killed).
  if (reachable.length === 0) return { time: time([]), covers: { startMs: 0, endMs: 0 } };
  const first = Math.min(...reachable);
  const last = Math.max(...reachable);
  const reach = (policy.bufferBeforeMinutes + policy.bufferAfterMinutes + policy.durationMinutes) * MINUTE_MS;
  const busy = await hostBusy({ db: deps.store.db, calendars: deps.calendars }, host, {
    startMs: first - reach,
    endMs: last + reach,
  });
  return { time: time(mergeIntervals(busy)), covers: { startMs: first, endMs: last + 1 } };
}

/** True when the read covers every given start (those past the horizon need none). */
export function coversAll(read: SeriesHostTime, startsMs: readonly number[], rules: StartRules = OCCURRENCE_RULES): boolean {
  const horizon = horizonOf(read.time.policy, read.time.nowMs, rules);
  return startsMs.every((ms) => ms > horizon || (ms >= read.covers.startMs && ms < read.covers.endMs));
}

/** Whether the host is free for an occurrence starting at `startMs`, by the given rules. */
export function isFreeFor(time: HostTime, startMs: number, rules: StartRules = OCCURRENCE_RULES): boolean {
  return skipCauseAt(time, startMs, rules) === undefined;
}

/** Why an occurrence at `startMs` would be skipped, by the given rules; undefined when the host is free. */
export function skipCauseAt(time: HostTime, startMs: number, rules: StartRules = OCCURRENCE_RULES): SkipCause | undefined {
  const verdict = judgeStart(time, startMs, undefined, rules);
  // Stryker disable next-line ConditionalExpression: without the early return an available verdict has no reason, matches no case and still answers undefined (the line's other mutant, always returning, is killed).
  if (verdict.available) return undefined;
  switch (verdict.reason) {
    // Candidates come after the read's now, so only a clock that went back between them gives a past start: inside any notice.
    case 'in_past':
    case 'outside_minimum_notice':
      return 'outside_minimum_notice';
    // An occurrence is not held to the grid (OCCURRENCE_RULES); a host move neither.
    case 'off_grid':
    case 'busy':
    case 'limit_reached':
      return 'busy';
    case 'outside_working_hours':
    case 'outside_future_limit':
    case 'event_type_inactive':
      return verdict.reason;
  }
}

/**
 * Occurrences one call books, so that the next one keeps clear of them too
 * (with the event type's buffers), without merging them into the host's
 * whole busy list each time: a call books at most 42.
 */
export class BookedHere {
  private readonly booked: Interval[] = [];
  constructor(private readonly policy: Pick<SlotPolicy, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>) {}

  add(slot: Interval): void {
    this.booked.push(slot);
  }

  /** True when `slot`, widened by the buffers, meets none of them. */
  isClear(slot: Interval): boolean {
    const from = slot.startMs - this.policy.bufferBeforeMinutes * MINUTE_MS;
    const to = slot.endMs + this.policy.bufferAfterMinutes * MINUTE_MS;
    return this.booked.every((b) => b.endMs <= from || b.startMs >= to);
  }
}
