import { addDays, civilDateOf, formatCivilDate, weekdayOf } from '../wall-clock.js';
import type { Interval } from './busy.js';

/** An event type's booking limits and seats (docs/api/event-types.md "Limits and seats"); null: none. */
export interface Limits {
  readonly eventTypeId: string;
  readonly maxPerDay: number | null;
  readonly maxPerWeek: number | null;
  readonly seats: number | null;
}

/** Attendees booked at one start of a seated type: one meeting for the host. */
export interface SeatGroup {
  readonly startMs: number;
  readonly endMs: number;
  readonly taken: number;
}

/**
 * What the limits and seats of an event type need to judge a start: the
 * type's own active bookings around it, grouped by start. A seated start
 * counts once against a limit, however many attendees it has.
 */
export interface Capacity {
  readonly limits: Limits;
  /** The zone days and weeks are counted in: the host's (their schedule's when it names one). */
  readonly zone: string;
  /** The type's bookings by start; for a seated type, its seat groups. */
  readonly groups: ReadonlyMap<number, SeatGroup>;
  readonly perDay: ReadonlyMap<string, number>;
  readonly perWeek: ReadonlyMap<string, number>;
}

/** The local day and the ISO week (by its Monday) a start falls on. */
function periodsOf(startMs: number, zone: string): { day: string; week: string } {
  const date = civilDateOf(startMs, zone);
  const back = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].indexOf(weekdayOf(date));
  return { day: formatCivilDate(date), week: formatCivilDate(addDays(date, -back)) };
}

function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The capacity from the type's active bookings (each an interval), read across the weeks a check may reach. */
export function capacityOf(limits: Limits, bookings: readonly Interval[], zone: string): Capacity {
  let capacity: Capacity = { limits, zone, groups: new Map(), perDay: new Map(), perWeek: new Map() };
  for (const booking of bookings) capacity = withBooked(capacity, booking);
  return capacity;
}

/** The capacity with one more booking of the type: a new start counts against the limits, a seat joins its group. */
export function withBooked(capacity: Capacity, slot: Interval): Capacity {
  const groups = new Map(capacity.groups);
  const group = groups.get(slot.startMs);
  groups.set(slot.startMs, { startMs: slot.startMs, endMs: Math.max(slot.endMs, group?.endMs ?? 0), taken: (group?.taken ?? 0) + 1 });
  if (group !== undefined) return { ...capacity, groups };
  const perDay = new Map(capacity.perDay);
  const perWeek = new Map(capacity.perWeek);
  const { day, week } = periodsOf(slot.startMs, capacity.zone);
  increment(perDay, day);
  increment(perWeek, week);
  return { ...capacity, groups, perDay, perWeek };
}

/**
 * True when a new start would pass the day's or the week's limit. A start
 * that joins a seated group already counted is no new booking for the limit.
 */
export function limitReached(capacity: Capacity, startMs: number): boolean {
  const { maxPerDay, maxPerWeek } = capacity.limits;
  if (maxPerDay === null && maxPerWeek === null) return false;
  if (capacity.limits.seats !== null && capacity.groups.has(startMs)) return false;
  const { day, week } = periodsOf(startMs, capacity.zone);
  if (maxPerDay !== null && (capacity.perDay.get(day) ?? 0) >= maxPerDay) return true;
  return maxPerWeek !== null && (capacity.perWeek.get(week) ?? 0) >= maxPerWeek;
}

/**
 * For a seated type, whether the slot `[from, to)` (its start at `startMs`,
 * widened by the buffers) is clear of the type's seat groups: the group at
 * the very start may be joined while it has a seat left; any other group is
 * a meeting like any other.
 */
export function seatsClear(capacity: Capacity, startMs: number, from: number, to: number): boolean {
  const seats = capacity.limits.seats;
  if (seats === null) return true;
  for (const group of capacity.groups.values()) {
    if (group.startMs === startMs) {
      if (group.taken >= seats) return false;
    } else if (group.startMs < to && group.endMs > from) {
      return false;
    }
  }
  return true;
}

/** Seats left at a start of a seated type; undefined for a type without seats. */
export function seatsLeft(capacity: Capacity | undefined, startMs: number): number | undefined {
  const seats = capacity?.limits.seats ?? null;
  if (seats === null) return undefined;
  return seats - (capacity!.groups.get(startMs)?.taken ?? 0);
}
