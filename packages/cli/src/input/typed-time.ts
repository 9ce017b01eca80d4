// A time as a person types it on the command line, turned into what the API
// takes. docs/api/overview.md "Instants, dates and zones": the API refuses an instant that
// names no offset, and the CLI is the one exception on the way in, reading
// such a time in --tz (the machine's zone by default) and sending it with its
// offset. Intl only, and core's wall-clock reading passed in, so that this
// file stays pure and light.

import type { CivilDate } from '@schedule/core';

/** core's wallClockToInstant: a spring-forward gap moves forward, a fall-back overlap takes the earlier instant. */
export type WallClockReader = (date: CivilDate, hour: number, minute: number, zone: string) => number;

const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** True when a typed time is a bare civil date (`2026-12-09`). */
export function isDateOnly(text: string): boolean {
  return DATE_ONLY.test(text);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset at an instant as `+01:00`, or undefined when it is not whole minutes (old local mean times). */
function offsetText(epochMs: number, zone: string): string | undefined {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')?.value ?? '';
  if (name === 'GMT') return '+00:00';
  return /^GMT([+-]\d{2}:\d{2})$/.exec(name)?.[1];
}

/** `2026-12-09T11:00:00+01:00`: an instant as the wall clock of `zone` shows it, with that zone's offset. */
export function withZoneOffset(epochMs: number, zone: string): string {
  const offset = offsetText(epochMs, zone);
  if (offset === undefined) return new Date(epochMs).toISOString();
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const wall = new Date(epochMs + minutes * 60_000).toISOString();
  const fraction = epochMs % 1000 === 0 ? '' : wall.slice(19, 23);
  return `${wall.slice(0, 19)}${fraction}${offset}`;
}

/**
 * What a typed time is sent as. With `Z` or an offset: as typed. A bare
 * date: as typed (for a flag that takes dates). A date-time without an
 * offset: read in `zone` through `wallClock`, and sent with the offset in
 * force then. Anything else: as typed, and `typedTimeProblem` refuses it.
 */
export function timeToSend(text: string, zone: string, wallClock: WallClockReader): string {
  const m = ZONELESS.exec(text);
  if (!m) return text;
  const [, year, month, day, hour, minute, second, millis] = m;
  const date = { year: Number(year), month: Number(month), day: Number(day) };
  const [h, min, sec] = [Number(hour), Number(minute), Number(second ?? 0)];
  // A date or time no calendar has (2026-02-30, 24:10) is sent as typed: typedTimeProblem refuses it.
  const probe = new Date(Date.UTC(date.year, date.month - 1, date.day, h, min, sec));
  if (probe.getUTCDate() !== date.day || probe.getUTCHours() !== h || probe.getUTCMinutes() !== min || probe.getUTCSeconds() !== sec) {
    return text;
  }
  const epochMs = wallClock(date, h, min, zone) + sec * 1000 + Number((millis ?? '').padEnd(3, '0'));
  return withZoneOffset(epochMs, zone);
}

/** What a flag takes: an instant only (`--start` of a booking), or a date as well (a list's `--from`). */
export type TimeKind = 'instant' | 'instant-or-date';

const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function dateExists(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * Why a typed time cannot be sent, in the CLI's words, or undefined when it
 * can: `sent` (timeToSend's answer) names its offset, or is a date that
 * exists for a flag that takes dates. The API would refuse the rest saying
 * an offset is missing, which is not what a CLI user got wrong: a zone-less
 * time is read in --tz (docs/api/choices.md). What names its offset but is
 * out of range is left to the API, whose words then fit.
 */
export function typedTimeProblem(flag: string, text: string, sent: string, kind: TimeKind): string | undefined {
  if (WITH_OFFSET.test(sent) && dateExists(sent)) return undefined;
  const date = isDateOnly(text) && dateExists(text);
  if (date && kind === 'instant-or-date') return undefined;
  if (date) return `${flag} ${text} is a date; give a time too, such as ${text}T09:00 (read in --tz) or ${text}T09:00:00Z.`;
  if (kind === 'instant') return `${flag} ${text} is not a time; give one such as 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.`;
  return `${flag} ${text} is not a date or a time; give one such as 2027-01-31, 2027-01-31T18:00 (read in --tz) or 2027-01-31T17:00:00Z.`;
}
