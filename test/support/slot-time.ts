/**
 * Times for tests that run against the real wall clock: whole UTC days counted
 * from the day the test file was loaded, so a workspace can place working
 * hours, busy times and bookings a few days ahead (or behind) and a test can
 * name the exact slots it expects.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** UTC midnight of the day this module was loaded. */
export const TODAY_MS = Math.floor(Date.now() / DAY_MS) * DAY_MS;

/** Epoch ms of `hour:minute` UTC on the day `day` days from today. */
export function utcAt(day: number, hour = 0, minute = 0): number {
  return TODAY_MS + day * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS;
}

/** The docs/api timestamp (ISO 8601 UTC with milliseconds) of an instant. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** `iso(utcAt(day, hour, minute))`. */
export function isoAt(day: number, hour = 0, minute = 0): string {
  return iso(utcAt(day, hour, minute));
}

/** The civil date `YYYY-MM-DD` of the day `day` days from today (UTC). */
export function dateOf(day: number): string {
  return iso(utcAt(day)).slice(0, 10);
}

export interface Slot {
  start: string;
  end: string;
  available: true;
}

/** The slots GET /v1/slots lists for these starts of an event type of `durationMinutes`. */
export function slotsAt(startsMs: readonly number[], durationMinutes: number): Slot[] {
  return startsMs.map((start) => ({ start: iso(start), end: iso(start + durationMinutes * MINUTE_MS), available: true }));
}

/** Every `stepMinutes` from `fromMs` (inclusive) to `toMs` (exclusive). */
export function grid(fromMs: number, toMs: number, stepMinutes: number): number[] {
  const out: number[] = [];
  for (let t = fromMs; t < toMs; t += stepMinutes * MINUTE_MS) out.push(t);
  return out;
}

/** A query string from the defined entries. */
export function queryOf(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, value);
  return `?${search.toString()}`;
}
