import { DateTime } from 'luxon';
import { civilDate } from './format.js';

// The month and day a visitor looks at, in the visitor's zone. The page asks
// `list_slots` for whole local days, and groups what it answers by the
// local date each start falls on, so a day shows exactly what
// `GET /v1/slots` lists for that day in that zone.

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** How far ahead the month links go: past any event type's future limit a person would set. */
export const MONTHS_AHEAD = 24;

/** A free start as `list_slots` answers it. */
export interface Slot {
  readonly start: string;
  readonly end: string;
}

/** A month in a zone: its first instant and the instant the next begins. */
export interface MonthWindow {
  readonly month: string;
  readonly startMs: number;
  readonly endMs: number;
}

/** The month a visitor asked for, held between this month and MONTHS_AHEAD ahead; this month when none or nonsense. */
export function monthOf(asked: string | undefined, zone: string, nowMs: number): MonthWindow {
  const now = DateTime.fromMillis(nowMs, { zone }).startOf('month');
  const match = asked === undefined ? null : MONTH.exec(asked);
  let first = match ? DateTime.fromObject({ year: Number(match[1]), month: Number(match[2]), day: 1 }, { zone }) : now;
  if (first < now) first = now;
  const last = now.plus({ months: MONTHS_AHEAD });
  if (first > last) first = last;
  return { month: first.toFormat('yyyy-LL'), startMs: first.toMillis(), endMs: first.plus({ months: 1 }).toMillis() };
}

/** The month after or before, as `?month=` writes it. */
export function shiftMonth(month: string, zone: string, by: number): string {
  const [year, m] = month.split('-').map(Number);
  return DateTime.fromObject({ year, month: m, day: 1 }, { zone }).plus({ months: by }).toFormat('yyyy-LL');
}

/** The windows `list_slots` is asked for one month: two halves, each well inside its 31-day limit whatever DST does. */
export function monthQueries(window: MonthWindow, zone: string): { startMs: number; endMs: number }[] {
  const middle = DateTime.fromMillis(window.startMs, { zone }).set({ day: 16 }).toMillis();
  return [
    { startMs: window.startMs, endMs: middle },
    { startMs: middle, endMs: window.endMs },
  ];
}

/** The local date (yyyy-mm-dd) a start falls on in a zone. */
export const localDate = civilDate;

/** A month's free starts by local date, in order. */
export function slotsByDay(slots: readonly Slot[], zone: string): Map<string, Slot[]> {
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    const date = localDate(slot.start, zone);
    const day = days.get(date);
    if (day) day.push(slot);
    else days.set(date, [slot]);
  }
  return days;
}

/** A date the visitor asked for, when it is one of the month's; else undefined. */
export function dateIn(asked: string | undefined, month: string): string | undefined {
  return asked !== undefined && DATE.test(asked) && asked.startsWith(`${month}-`) && DateTime.fromISO(asked).isValid ? asked : undefined;
}

/** The month's weeks, Monday first (ISO 8601), each day its date or null outside the month. */
export function weeksOf(month: string): (string | null)[][] {
  const first = DateTime.fromISO(`${month}-01`);
  const days: (string | null)[] = Array.from({ length: first.weekday - 1 }, () => null);
  for (let d = first; d.month === first.month; d = d.plus({ days: 1 })) days.push(d.toISODate());
  while (days.length % 7 !== 0) days.push(null);
  return Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7));
}

/** The local day's window in a zone, as a day query of `GET /v1/slots` would name it. */
export function dayWindow(date: string, zone: string): { startMs: number; endMs: number } {
  const start = DateTime.fromISO(date, { zone });
  return { startMs: start.toMillis(), endMs: start.plus({ days: 1 }).toMillis() };
}
