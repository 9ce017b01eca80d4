import { parseInstant, toTimestamp, type Workspace } from '@schedule/core';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** The UTC midnight of the Monday of the week holding `epochMs`. */
function mondayOf(epochMs: number): number {
  const midnight = Math.floor(epochMs / DAY_MS) * DAY_MS;
  // getUTCDay: 0 is Sunday; a week starts on Monday (ISO 8601, as series weeks do).
  return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY_MS;
}

/**
 * How many whole weeks a demo written for the week of `weekOf` (a Monday)
 * moves so that its week is the one holding `nowMs`. Whole weeks keep every
 * date on its weekday, so a Monday meeting stays inside Monday's working hours.
 */
export function demoWeeksAhead(weekOf: string, nowMs: number): number {
  return Math.round((mondayOf(nowMs) - Date.parse(`${weekOf}T00:00:00Z`)) / WEEK_MS);
}

/**
 * The workspace with every date and instant it holds moved by `weeks`:
 * imported bookings (start, cancellation), static busy times, date
 * overrides and token expiries. Metadata and form answers are the
 * attendee's words and stay as written.
 */
export function moveDemoDates(workspace: Workspace, weeks: number): Workspace {
  const by = weeks * WEEK_MS;
  const instant = (text: string) => toTimestamp(parseInstant(text)!.epochMs + by);
  const date = (text: string) => toTimestamp(Date.parse(`${text}T00:00:00Z`) + by).slice(0, 10);
  return {
    ...workspace,
    users: workspace.users.map((user) => ({
      ...user,
      ...(user.schedule && {
        schedule: { ...user.schedule, overrides: user.schedule.overrides.map((o) => ({ ...o, date: date(o.date) })) },
      }),
      calendars: user.calendars.map((calendar) =>
        calendar.kind === 'static'
          ? { ...calendar, busy: calendar.busy.map((b) => ({ ...b, start: instant(b.start), end: instant(b.end) })) }
          : calendar,
      ),
    })),
    tokens: workspace.tokens.map((token) => (token.expires_at ? { ...token, expires_at: instant(token.expires_at) } : token)),
    bookings: workspace.bookings.map((booking) => ({
      ...booking,
      start: instant(booking.start),
      ...(booking.cancelled_at && { cancelled_at: instant(booking.cancelled_at) }),
    })),
  };
}

/** The demo as it loads today: moved to the current week when the file says which week it was written for. */
export function demoForToday(workspace: Workspace, nowMs: number): Workspace {
  return typeof workspace.demo === 'object' ? moveDemoDates(workspace, demoWeeksAhead(workspace.demo.week_of, nowMs)) : workspace;
}
