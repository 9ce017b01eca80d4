import { dateTimeIn } from './zone-time.js';

/** How output is written: a table for people on a terminal, tab-separated for scripts, or the API's JSON. */
export interface OutputStyle {
  readonly json: boolean;
  /** stdout is a terminal: aligned columns, times in `zone`. */
  readonly tty: boolean;
  readonly color: boolean;
  /** The zone times are shown in on a terminal. */
  readonly zone: string;
}

/** One column of a list: its heading and how to read it off an item. */
export interface Column {
  readonly title: string;
  readonly value: (item: any) => unknown;
  /** Colours a cell on a terminal (status, for one). */
  readonly tone?: (text: string) => Tone;
}

export type Tone = 'plain' | 'good' | 'bad' | 'dim';

const ANSI: Record<Tone | 'bold', [string, string]> = {
  plain: ['', ''],
  good: ['\u001b[32m', '\u001b[39m'],
  bad: ['\u001b[31m', '\u001b[39m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  bold: ['\u001b[1m', '\u001b[22m'],
};

function paint(style: OutputStyle, tone: Tone | 'bold', text: string): string {
  if (!style.color || tone === 'plain') return text;
  const [on, off] = ANSI[tone];
  return `${on}${text}${off}`;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

/** A cell as text: instants in the viewer's zone on a terminal, as stored (UTC ISO) for scripts. */
export function cellText(value: unknown, style: OutputStyle): string {
  if (value === null || value === undefined) return style.tty ? '-' : '';
  if (typeof value === 'string') {
    if (style.tty && INSTANT.test(value)) return dateTimeIn(value, style.zone);
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
  return JSON.stringify(value);
}

/** A list: aligned with a bold heading on a terminal, else one tab-separated line per item and no heading. */
export function renderList(items: readonly unknown[], columns: readonly Column[], style: OutputStyle): string {
  const rows = items.map((item) => columns.map((c) => cellText(c.value(item), style).replace(/[\t\n]/g, ' ')));
  if (!style.tty) return rows.map((r) => `${r.join('\t')}\n`).join('');
  if (rows.length === 0) return `${paint(style, 'dim', 'nothing to show')}\n`;
  const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[], tones: (Tone | 'bold')[]) =>
    `${cells
      .map((cell, i) => paint(style, tones[i]!, i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()}\n`;
  return [
    line(
      columns.map((c) => c.title),
      columns.map(() => 'bold'),
    ),
    ...rows.map((r) =>
      line(
        r,
        columns.map((c, i) => c.tone?.(r[i]!) ?? 'plain'),
      ),
    ),
  ].join('');
}

/** One object: `key  value` lines, aligned on a terminal, tab-separated otherwise. */
export function renderObject(value: Record<string, unknown>, style: OutputStyle): string {
  const entries = Object.entries(value).map(([k, v]) => [k, cellText(v, style)] as const);
  if (!style.tty) return entries.map(([k, v]) => `${k}\t${v.replace(/[\t\n]/g, ' ')}\n`).join('');
  const width = Math.max(0, ...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `${paint(style, 'dim', k.padEnd(width))}  ${v}\n`).join('');
}

/** `✓ Booked …`: a write's one-line confirmation on a terminal, the mark in green. */
export function confirmationLine(style: OutputStyle, text: string): string {
  return `${paint(style, 'good', '✓')} ${text}\n`;
}

/** The API's data as JSON: exactly what `data` holds (lists: the array). */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Status words coloured by what they mean. */
export function statusTone(text: string): Tone {
  if (text === 'confirmed' || text === 'active' || text === 'succeeded' || text === 'true') return 'good';
  if (text === 'canceled' || text === 'ended' || text === 'revoked' || text === 'failed' || text === 'disabled' || text === 'false')
    return 'bad';
  if (text === 'paused') return 'dim';
  return 'plain';
}

/** Whether to colour: a terminal, and neither NO_COLOR (no-color.org) nor --no-color. */
export function wantsColor(tty: boolean, flag: boolean | undefined): boolean {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  return tty && flag !== false && !noColor;
}
