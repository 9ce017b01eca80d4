import type { Schedule } from '../event-types/schedule.js';
import { DAY_MS, MINUTE_MS } from '../time.js';
import { type Interval, mergeIntervals } from './busy.js';
import { type Capacity, type Limits, limitReached, seatsClear } from './capacity.js';
import { gridAnchorOf, gridAnchors, workingTime } from './working-hours.js';

/** What the rules of a slot read from an event type. */
export interface SlotPolicy {
  readonly status: string;
  readonly durationMinutes: number;
  readonly slotIntervalMinutes: number;
  readonly minimumNoticeMinutes: number;
  readonly futureLimitDays: number;
  readonly bufferBeforeMinutes: number;
  readonly bufferAfterMinutes: number;
  /** Set when the type has a booking limit or seats (limitsOf); loading the host's time then reads its own bookings too. */
  readonly limits?: Limits | undefined;
}

/** Everything that decides whether a host is free: pure data, loaded once per call. */
export interface HostTime {
  readonly policy: SlotPolicy;
  readonly schedule: Schedule | null;
  readonly zone: string;
  /**
   * Active bookings of the host and busy times of their calendars, merged;
   * a seated type's own bookings are in `capacity` instead, as seat groups.
   */
  readonly busy: readonly Interval[];
  readonly nowMs: number;
  /** The type's own bookings as its limits and seats count them; absent for a type with neither. */
  readonly capacity?: Capacity | undefined;
}

/** Why a start is not bookable, in docs/api's order of precedence. */
export type Unavailable = 'event_type_inactive' | 'in_past' | 'outside_minimum_notice' | 'outside_future_limit' | 'slot_busy';

/**
 * The three causes the API reports together as `slot_busy`
 * (docs/api/choices.md "Bookings"), told apart where a caller is shown why:
 * a series preview's skipped dates.
 */
export type SlotBusyCause = 'outside_working_hours' | 'off_grid' | 'busy' | 'limit_reached';

/** Why a start is not bookable, with `slot_busy` split into its cause. */
export type UnavailableCause = Exclude<Unavailable, 'slot_busy'> | SlotBusyCause;

/** Merges bookings and calendar busy times into one sorted list. */
export function busyOf(bookings: readonly Interval[], calendarBusy: readonly Interval[]): Interval[] {
  return mergeIntervals([...bookings, ...calendarBusy]);
}

/** The first index whose interval ends after `t`; binary search over merged, sorted intervals. */
function firstEndingAfter(busy: readonly Interval[], t: number): number {
  let lo = 0;
  let hi = busy.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (busy[mid]!.endMs <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * True when nothing busy touches the slot widened by the event type's
 * buffers: a buffer keeps the time around a meeting free, whether the
 * neighbour is a booking or a calendar event.
 */
function isClear(time: HostTime, startMs: number, endMs: number): boolean {
  const from = startMs - time.policy.bufferBeforeMinutes * MINUTE_MS;
  const to = endMs + time.policy.bufferAfterMinutes * MINUTE_MS;
  const next = time.busy[firstEndingAfter(time.busy, from)];
  if (next !== undefined && next.startMs < to) return false;
  return time.capacity === undefined || seatsClear(time.capacity, startMs, from, to);
}

/**
 * The last rules of a start, about the host's bookings, that freeSlots and
 * judgeStart both ask: clear of busy time (seat groups included), then
 * within the type's limits.
 */
function bookingsVerdict(time: HostTime, startMs: number, endMs: number): 'busy' | 'limit_reached' | undefined {
  if (!isClear(time, startMs, endMs)) return 'busy';
  if (time.capacity !== undefined && limitReached(time.capacity, startMs)) return 'limit_reached';
  return undefined;
}

function withinNotice(time: HostTime, startMs: number): boolean {
  return startMs >= time.nowMs + time.policy.minimumNoticeMinutes * MINUTE_MS;
}

function withinHorizon(time: HostTime, startMs: number): boolean {
  return startMs <= time.nowMs + time.policy.futureLimitDays * DAY_MS;
}

/**
 * The free slots whose start lies in `range`: on the grid of a stretch of
 * working time (every `slot_interval_minutes` from each of its anchors, see
 * gridAnchorOf), the whole duration inside the stretch, within notice and
 * horizon, and clear of busy time. The one definition `checkStart` agrees
 * with: a start is listed for a window exactly when it lies in the window and
 * checkStart says it is available.
 */
export function freeSlots(time: HostTime, range: Interval, wanted: (startMs: number) => boolean = () => true): Interval[] {
  if (time.policy.status !== 'on') return [];
  const duration = time.policy.durationMinutes * MINUTE_MS;
  const step = time.policy.slotIntervalMinutes * MINUTE_MS;
  const slots: Interval[] = [];
  const { stretches, zone } = workingTime(time.schedule, time.zone, { startMs: range.startMs, endMs: range.endMs + duration });
  for (const stretch of stretches) {
    const anchors = gridAnchors(stretch, zone);
    for (const [i, anchor] of anchors.entries()) {
      const until = Math.min(anchors[i + 1] ?? stretch.endMs, range.endMs);
      // The first grid point at or after the range's start.
      const first = anchor + Math.max(0, Math.ceil((range.startMs - anchor) / step)) * step;
      for (let start = first; start < until && start + duration <= stretch.endMs; start += step) {
        // A team's list judges only the starts no host has given it yet (team-time.ts).
        if (!wanted(start) || !withinNotice(time, start) || !withinHorizon(time, start)) continue;
        if (bookingsVerdict(time, start, start + duration) === undefined) slots.push({ startMs: start, endMs: start + duration });
      }
    }
  }
  return slots;
}

/**
 * Which of the booking rules a start is held to. A booking made by
 * `POST /v1/bookings` meets them all; a series occurrence's time comes from
 * its pattern, not the grid; moving an existing occurrence to another host
 * only needs that host working and free.
 */
export interface StartRules {
  /** The start must lie on the slot grid of a working interval (default true). */
  readonly grid?: boolean;
  /** Minimum notice and the future limit apply (default true). */
  readonly bookingWindow?: boolean;
}

/**
 * Whether one exact start (and end, by default start + duration) can be
 * booked. A start off the grid or outside working hours is `slot_busy`
 * (docs/api/choices.md "Bookings").
 */
export function checkStart(
  time: HostTime,
  startMs: number,
  endMs?: number,
  rules: StartRules = {},
): { available: true } | { available: false; reason: Unavailable } {
  const verdict = judgeStart(time, startMs, endMs, rules);
  if (verdict.available) return verdict;
  return { available: false, reason: isSlotBusyCause(verdict.reason) ? 'slot_busy' : verdict.reason };
}

function isSlotBusyCause(cause: UnavailableCause): cause is SlotBusyCause {
  return cause === 'outside_working_hours' || cause === 'off_grid' || cause === 'busy' || cause === 'limit_reached';
}

/** `checkStart`, telling apart the causes the API reports as `slot_busy`, in the same order of precedence. */
export function judgeStart(
  time: HostTime,
  startMs: number,
  endMs?: number,
  rules: StartRules = {},
): { available: true } | { available: false; reason: UnavailableCause } {
  const { grid = true, bookingWindow = true } = rules;
  if (time.policy.status !== 'on') return { available: false, reason: 'event_type_inactive' };
  if (startMs < time.nowMs) return { available: false, reason: 'in_past' };
  if (bookingWindow && !withinNotice(time, startMs)) return { available: false, reason: 'outside_minimum_notice' };
  if (bookingWindow && !withinHorizon(time, startMs)) return { available: false, reason: 'outside_future_limit' };
  const duration = time.policy.durationMinutes * MINUTE_MS;
  const step = time.policy.slotIntervalMinutes * MINUTE_MS;
  // Stryker disable next-line ArithmeticOperator: without an end, Math.max takes startMs + duration whatever the first argument falls back to (the line's other ArithmeticOperator mutant, startMs - duration as the floor, is killed by slot-rules.test.ts "still checks the full duration").
  const end = Math.max(endMs ?? startMs + duration, startMs + duration);
  const { stretches, zone } = workingTime(time.schedule, time.zone, { startMs, endMs: end });
  const stretch = stretches.find((w) => startMs >= w.startMs && end <= w.endMs);
  if (stretch === undefined) return { available: false, reason: 'outside_working_hours' };
  if (grid && (startMs - gridAnchorOf(stretch, startMs, zone)) % step !== 0) return { available: false, reason: 'off_grid' };
  const verdict = bookingsVerdict(time, startMs, end);
  return verdict === undefined ? { available: true } : { available: false, reason: verdict };
}
