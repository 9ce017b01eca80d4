import { Box, renderToString, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { addDays, dayHeading, localTime } from '../output/zone-time.js';
import type { AgendaDay } from './agenda.js';
import { HINT, tint } from './text-style.js';

export interface AgendaViewProps {
  readonly days: readonly AgendaDay[];
  readonly zone: string;
  readonly color: boolean;
  /** Today's date in `zone`, to call today and tomorrow by name. */
  readonly today: string;
  /** How many days ahead the agenda looks. */
  readonly span: number;
  /** Show whose meeting each is: the agenda lists other people's too. */
  readonly showHost?: boolean;
  /** The uid of the meeting chosen with the keyboard (agenda-app.ts), marked `›`. */
  readonly selected?: string | undefined;
  /** How many lines below the title fit on the screen; the lines scroll to keep the chosen meeting in view. All when absent. */
  readonly maxLines?: number | undefined;
}

function dayName(date: string, today: string): string {
  if (date === today) return `${dayHeading(date)} · today`;
  if (date === addDays(today, 1)) return `${dayHeading(date)} · tomorrow`;
  return dayHeading(date);
}

/** The lines `[top, bottom)` to draw: all that fit, the chosen one in the middle when they do not all fit. */
export function visibleLines(count: number, chosen: number, maxLines: number | undefined): [number, number] {
  if (maxLines === undefined || count <= maxLines) return [0, count];
  // Two lines go to the "earlier" and "later" markers.
  const fit = Math.max(1, maxLines - 2);
  const top = Math.min(Math.max(0, chosen - Math.floor(fit / 2)), count - fit);
  return [top, top + fit];
}

/**
 * Upcoming bookings under a heading per day, times in the viewer's zone;
 * with `showHost`, the host after the time; with `selected`, that meeting
 * marked, kept on screen within `maxLines`.
 */
export function AgendaView({ days, zone, color, today, span, showHost = false, selected, maxLines }: AgendaViewProps): ReactNode {
  const title = `Agenda, next ${span} day${span === 1 ? '' : 's'} (${zone})`;
  const hostWidth = Math.max(0, ...days.flatMap((day) => day.bookings.map((b) => (b.host?.username ?? '-').length)));
  const hostCell = (b: AgendaDay['bookings'][number]) => (showHost ? `${(b.host?.username ?? '-').padEnd(hostWidth)}  ` : '');
  const lines: ReactNode[] = [];
  let chosen = 0;
  for (const day of days) {
    lines.push(h(Text, { key: `${day.date} gap` }, ' '));
    lines.push(h(Text, { key: day.date, ...tint(color, { bold: true, color: 'cyan' }) }, dayName(day.date, today)));
    for (const b of day.bookings) {
      const here = b.uid === selected;
      if (here) chosen = lines.length;
      lines.push(
        h(
          Text,
          { key: b.uid },
          h(
            Text,
            tint(color, here ? { bold: true, color: 'cyan' } : {}),
            `${here ? '›' : ' '} ${localTime(b.start_at, zone)}–${localTime(b.end_at, zone)}  ${hostCell(b)}${b.title}`,
          ),
          b.attendees?.[0] ? h(Text, tint(color, HINT), `  ${b.attendees[0].email}`) : null,
        ),
      );
    }
  }
  const [top, bottom] = visibleLines(lines.length, chosen, maxLines);
  const shown = lines.slice(top, bottom);
  if (top > 0) shown.unshift(h(Text, { key: 'earlier', ...tint(color, HINT) }, `  ↑ ${top} more lines`));
  if (bottom < lines.length) shown.push(h(Text, { key: 'later', ...tint(color, HINT) }, `  ↓ ${lines.length - bottom} more lines`));
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { bold: true }), title),
    days.length === 0 ? h(Text, null, 'Nothing booked.') : null,
    ...shown,
  );
}

/** The agenda drawn once as text for stdout, as wide as the terminal. */
export function renderAgenda(props: AgendaViewProps, columns = process.stdout.columns || 80): string {
  return `${renderToString(h(AgendaView, props), { columns })}\n`;
}
