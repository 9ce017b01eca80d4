import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { type RunContext, runCommand } from '../command-context.js';
import { renderJson } from '../output/render.js';
import { localDate } from '../output/zone-time.js';
import type { BookingItem } from './api-items.js';
import { listAll } from './list-all.js';
import { withProgress } from './progress.js';
import { isInteractive } from './terminal.js';

// `schedule agenda`: upcoming confirmed bookings by day. Only the terminal
// view loads ink (agenda-view.ts, and agenda-app.ts where a person can act
// on a meeting); piped output is plain tab-separated text.

const DAY_MS = 86_400_000;

/** One day of the agenda, in the viewer's zone. */
export interface AgendaDay {
  readonly date: string;
  readonly bookings: readonly BookingItem[];
}

/** Bookings (already in start order) grouped by the day they start on in `zone`. */
export function groupByDay(bookings: readonly BookingItem[], zone: string): AgendaDay[] {
  const days: { date: string; bookings: BookingItem[] }[] = [];
  for (const booking of bookings) {
    const date = localDate(booking.start_at, zone);
    const last = days.at(-1);
    if (last?.date === date) last.bookings.push(booking);
    else days.push({ date, bookings: [booking] });
  }
  return days;
}

const clean = (text: string | undefined) => (text ?? '').replace(/[\t\n]/g, ' ');

/**
 * The agenda for scripts: one line per booking, no heading, no colour:
 * local day, start and end (ISO UTC, as stored), uid, host, attendee, title.
 */
export function agendaLines(days: readonly AgendaDay[]): string {
  return days
    .flatMap((day) =>
      day.bookings.map(
        (b) => `${[day.date, b.start_at, b.end_at, b.uid, b.host?.username, b.attendees?.[0]?.email, b.title].map(clean).join('\t')}\n`,
      ),
    )
    .join('');
}

/** The `list_bookings` query of the agenda: confirmed, starting from now to `days` days ahead, soonest first. */
export function agendaQuery(nowMs: number, days: number): Record<string, unknown> {
  return {
    start_date: new Date(nowMs).toISOString(),
    end_date: new Date(nowMs + days * DAY_MS).toISOString(),
    status: 'confirmed',
    sort: 'start_at_asc',
  };
}

/** Who the token acts as, as the agenda needs it (`whoami`). */
interface Me {
  readonly username: string;
  readonly timezone: string;
}

/** Whether the agenda lists anyone else's meetings: then each line says whose (a manager's, admin's or owner's token). */
export function listsOthers(bookings: readonly BookingItem[], me: Me): boolean {
  return bookings.some((b) => b.host !== undefined && b.host !== null && b.host.username !== me.username);
}

async function showAgenda(ctx: RunContext, days: number): Promise<void> {
  const nowMs = Date.now();
  const [me, bookings] = await withProgress('Loading your agenda…', () =>
    Promise.all([ctx.call('whoami', {}).then((r) => r.data as Me), listAll<BookingItem>(ctx, 'list_bookings', agendaQuery(nowMs, days))]),
  );
  if (ctx.style.json) return ctx.print(renderJson(bookings));
  // The user's own zone unless --tz names one: an agenda is read as the day on the user's wall.
  const zone = ctx.options.tz === undefined ? me.timezone : ctx.style.zone;
  const grouped = groupByDay(bookings, zone);
  if (!ctx.style.tty) return ctx.print(agendaLines(grouped));
  const showHost = listsOthers(bookings, me);
  // Someone at a terminal may act on a meeting; with none to act on, or no keyboard (stdin piped, CI), it is drawn once.
  if (bookings.length > 0 && isInteractive()) {
    const { actOnAgenda } = await import('./agenda-actions.js');
    return actOnAgenda(ctx, { bookings, zone, nowMs, span: days, showHost });
  }
  const { renderAgenda } = await import('./agenda-view.js');
  ctx.print(renderAgenda({ days: grouped, zone, color: ctx.style.color, today: localDate(nowMs, zone), span: days, showHost }));
}

/** `schedule agenda [--days N]`. */
export function agenda(command: Command): Promise<void> {
  return runCommand(command, async (ctx) => {
    const days = ctx.options.days === undefined ? 7 : Number(ctx.options.days);
    if (!Number.isInteger(days) || days < 1 || days > 366) throw new CliError('usage', '--days must be a whole number from 1 to 366.');
    await showAgenda(ctx, days);
  });
}
