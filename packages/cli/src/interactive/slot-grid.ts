import { Box, type Key, Text } from 'ink';
import { createElement as h, type ReactNode, useMemo } from 'react';
import { dayColumn, dayHeading, localTime } from '../output/zone-time.js';
import { useAnswerOnce, useFreshState } from './fresh-state.js';
import { useKeys } from './key-router.js';
import { buildGrid, type Cursor, type Direction, firstCursor, type Grid, moveCursor, type Slot } from './slot-grid-model.js';
import { Spinner } from './spinner.js';
import { HINT, tint } from './text-style.js';

const CELL = 7;

export interface SlotGridProps {
  /** The week's seven civil days, Monday first, in `zone`. */
  readonly days: readonly string[];
  /** Its free starts (`list_slots`); undefined while they load. */
  readonly slots: readonly Slot[] | undefined;
  /** The viewer's zone: columns are its days, rows its wall-clock times. */
  readonly zone: string;
  readonly color: boolean;
  /** Whether `p` may go back (not before the current week). */
  readonly canGoBack: boolean;
  /** How many time rows fit on the screen; the rows scroll to keep the highlight in view. All when absent. */
  readonly maxRows?: number | undefined;
  /** What enter does with the slot, in the key hints: `book` (the default), `move`. */
  readonly pickWord?: string;
  onPick(slot: Slot): void;
  onWeek(step: 1 | -1): void;
  onCancel(): void;
}

function directionOf(key: Key): Direction | undefined {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  return undefined;
}

/**
 * A week of free slots: days as columns, times as rows. Arrow keys move the
 * highlight between free slots, n/p change week, enter picks, esc quits.
 */
export function SlotGrid({
  days,
  slots,
  zone,
  color,
  canGoBack,
  maxRows,
  pickWord = 'book',
  onPick,
  onWeek,
  onCancel,
}: SlotGridProps): ReactNode {
  const grid = useMemo(() => buildGrid(days, slots ?? [], zone), [days, slots, zone]);
  // The highlight belongs to one grid: a new week (or its slots arriving) starts at its earliest free slot.
  const [held, readHeld, setHeld] = useFreshState<{ grid: Grid; cursor: Cursor | undefined }>(() => ({ grid, cursor: firstCursor(grid) }));
  const cursorOf = (state: { grid: Grid; cursor: Cursor | undefined }) => (state.grid === grid ? state.cursor : firstCursor(grid));
  const cursor = cursorOf(held);
  const once = useAnswerOnce();

  useKeys((input, key) => {
    if (key.escape || input === 'q') return once(onCancel);
    if (input === 'n') return onWeek(1);
    if (input === 'p') return canGoBack ? onWeek(-1) : undefined;
    const current = cursorOf(readHeld());
    if (!current) return;
    if (key.return) {
      const slot = grid.slotAt(current.col, current.row);
      if (slot) once(() => onPick(slot));
      return;
    }
    const direction = directionOf(key);
    if (direction) setHeld({ grid, cursor: moveCursor(grid, current, direction) });
  });

  const picked = cursor ? grid.slotAt(cursor.col, cursor.row) : undefined;
  const header = h(Text, tint(color, { bold: true }), ' '.repeat(CELL), ...days.map((d) => ` ${dayColumn(d)}`.padEnd(CELL)));
  const [top, bottom] = visibleRows(grid.times.length, cursor?.row ?? 0, maxRows);
  const rows = grid.times.slice(top, bottom).map((time, i) => {
    const row = top + i;
    return h(
      Text,
      { key: time },
      time.padEnd(CELL),
      ...days.map((day, col) => {
        const here = cursor?.col === col && cursor.row === row;
        const free = grid.slotAt(col, row) !== undefined;
        const text = here ? `[${time}]` : free ? ` ${time} ` : '   ·   ';
        return h(Text, { key: day, ...tint(color, here ? { inverse: true } : free ? {} : HINT) }, text);
      }),
    );
  });
  if (top > 0) rows.unshift(h(Text, { key: 'earlier', ...tint(color, HINT) }, `  ↑ ${top} earlier`));
  if (bottom < grid.times.length) rows.push(h(Text, { key: 'later', ...tint(color, HINT) }, `  ↓ ${grid.times.length - bottom} later`));
  const first = days[0] ?? '';
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, tint(color, { bold: true }), `Week of ${dayHeading(first)}  (${zone})`),
    header,
    slots === undefined
      ? h(Spinner, { label: 'Loading free times…' })
      : rows.length === 0
        ? h(Text, null, 'No free times this week.')
        : h(Box, { flexDirection: 'column' }, ...rows),
    picked ? h(Text, null, 'Selected: ', h(Text, tint(color, { bold: true }), slotText(days, cursor, picked, zone))) : null,
    h(Text, tint(color, HINT), `←↑↓→ move  n next week${canGoBack ? '  p previous week' : ''}  enter ${pickWord}  esc quit`),
  );
}

/** The rows `[top, bottom)` to draw: all that fit, centred on the highlight's row when they do not all fit. */
export function visibleRows(count: number, row: number, maxRows: number | undefined): [number, number] {
  if (maxRows === undefined || count <= maxRows) return [0, count];
  // Two rows go to the "earlier" and "later" markers.
  const fit = Math.max(1, maxRows - 2);
  const top = Math.min(Math.max(0, row - Math.floor(fit / 2)), count - fit);
  return [top, top + fit];
}

function slotText(days: readonly string[], cursor: Cursor | undefined, slot: Slot, zone: string): string {
  const day = (cursor && days[cursor.col]) ?? '';
  return `${dayHeading(day)} ${localTime(slot.start, zone)}–${localTime(slot.end, zone)}`;
}
