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
}

function dayName(date: string, today: string): string {
  if (date === today) return `${dayHeading(date)} · today`;
  if (date === addDays(today, 1)) return `${dayHeading(date)} · tomorrow`;
  return dayHeading(date);
}

/** Upcoming bookings under a heading per day, times in the viewer's zone; with `showHost`, the host after the time. */
export function AgendaView({ days, zone, color, today, span, showHost = false }: AgendaViewProps): ReactNode {
  const title = `Agenda, next ${span} day${span === 1 ? '' : 's'} (${zone})`;
  const hostWidth = Math.max(0, ...days.flatMap((day) => day.bookings.map((b) => (b.host?.username ?? '-').length)));
  const hostCell = (b: AgendaDay['bookings'][number]) => (showHost ? `${(b.host?.username ?? '-').padEnd(hostWidth)}  ` : '');
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { bold: true }), title),
    days.length === 0 ? h(Text, null, 'Nothing booked.') : null,
    ...days.map((day) =>
      h(
        Box,
        { key: day.date, flexDirection: 'column', marginTop: 1 },
        h(Text, tint(color, { bold: true, color: 'cyan' }), dayName(day.date, today)),
        ...day.bookings.map((b) =>
          h(
            Text,
            { key: b.uid },
            `  ${localTime(b.start_at, zone)}–${localTime(b.end_at, zone)}  ${hostCell(b)}${b.title}`,
            b.attendees?.[0] ? h(Text, tint(color, HINT), `  ${b.attendees[0].email}`) : null,
          ),
        ),
      ),
    ),
  );
}

/** The agenda drawn once as text for stdout, as wide as the terminal. */
export function renderAgenda(props: AgendaViewProps, columns = process.stdout.columns || 80): string {
  return `${renderToString(h(AgendaView, props), { columns })}\n`;
}
