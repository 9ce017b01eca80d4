import { localDate, localTime } from '../output/zone-time.js';

// The slot grid without React: days as columns, wall-clock times as rows,
// and how the highlight moves. Pure, so each rule is tested on its own.

/** A free start as `list_slots` returns it. */
export interface Slot {
  readonly start: string;
  readonly end: string;
}

export interface Grid {
  /** Civil dates, one column each. */
  readonly days: readonly string[];
  /** `HH:MM` rows, earliest first: every time some day of the week has a slot. */
  readonly times: readonly string[];
  /** The slot at a column and row, if that day has one at that time. */
  slotAt(col: number, row: number): Slot | undefined;
}

export interface Cursor {
  readonly col: number;
  readonly row: number;
}

export type Direction = 'up' | 'down' | 'left' | 'right';

/** Lays the week's slots out in the viewer's zone. A time a fall-back day has twice keeps its first slot. */
export function buildGrid(days: readonly string[], slots: readonly Slot[], zone: string): Grid {
  const cells = new Map<string, Slot>();
  const times = new Set<string>();
  for (const slot of slots) {
    const day = localDate(slot.start, zone);
    if (!days.includes(day)) continue;
    const time = localTime(slot.start, zone);
    const key = `${day} ${time}`;
    if (cells.has(key)) continue;
    cells.set(key, slot);
    times.add(time);
  }
  const sorted = [...times].sort();
  return {
    days,
    times: sorted,
    slotAt: (col, row) => {
      const day = days[col];
      const time = sorted[row];
      return day === undefined || time === undefined ? undefined : cells.get(`${day} ${time}`);
    },
  };
}

/** The earliest slot of the week (by day, then time), or none in an empty week. */
export function firstCursor(grid: Grid): Cursor | undefined {
  for (let col = 0; col < grid.days.length; col++) {
    for (let row = 0; row < grid.times.length; row++) if (grid.slotAt(col, row)) return { col, row };
  }
  return undefined;
}

/**
 * The highlight after an arrow key; it only ever rests on a free slot. Up and
 * down go to the next free time of the same day; left and right to the next
 * day with any free time, at the free time nearest the current row (the
 * earlier one on a tie). Where nothing is free that way, it stays.
 */
export function moveCursor(grid: Grid, cursor: Cursor, direction: Direction): Cursor {
  if (direction === 'up' || direction === 'down') {
    const step = direction === 'down' ? 1 : -1;
    for (let row = cursor.row + step; row >= 0 && row < grid.times.length; row += step) {
      if (grid.slotAt(cursor.col, row)) return { col: cursor.col, row };
    }
    return cursor;
  }
  const step = direction === 'right' ? 1 : -1;
  for (let col = cursor.col + step; col >= 0 && col < grid.days.length; col += step) {
    let best: number | undefined;
    for (let row = 0; row < grid.times.length; row++) {
      if (!grid.slotAt(col, row)) continue;
      if (best === undefined || Math.abs(row - cursor.row) < Math.abs(best - cursor.row)) best = row;
    }
    if (best !== undefined) return { col, row: best };
  }
  return cursor;
}
