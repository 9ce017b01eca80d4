import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlotGrid, type SlotGridProps, visibleRows } from '../src/interactive/slot-grid.js';
import { buildGrid, firstCursor, moveCursor, type Slot } from '../src/interactive/slot-grid-model.js';
import { weekStarting } from '../src/interactive/week.js';
import { KEY, press } from './support/ink-keys.js';

// The week of Mon 7 Dec 2026 in Berlin (UTC+1): 09:00 local is 08:00Z.
const ZONE = 'Europe/Berlin';
const WEEK = weekStarting('2026-12-07', ZONE);

function slot(date: string, localHour: number, minute = 0): Slot {
  const start = new Date(
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), localHour - 1, minute),
  );
  return { start: start.toISOString(), end: new Date(start.getTime() + 30 * 60_000).toISOString() };
}

// Mon 09:00 and 10:00; Tue 10:00 only; Thu 09:00 and 11:00. Wed, Fri and the weekend are full.
const SLOTS = [slot('2026-12-07', 9), slot('2026-12-07', 10), slot('2026-12-08', 10), slot('2026-12-10', 9), slot('2026-12-10', 11)];

function grid(props: Partial<SlotGridProps> = {}) {
  const onPick = vi.fn();
  const onWeek = vi.fn();
  const onCancel = vi.fn();
  const app = render(
    h(SlotGrid, { days: WEEK.days, slots: SLOTS, zone: ZONE, color: false, canGoBack: true, onPick, onWeek, onCancel, ...props }),
  );
  return { app, onPick, onWeek, onCancel };
}

/** The highlighted cell: `[HH:MM]` under its day's column. */
function highlighted(frame: string): { day: string; time: string } | undefined {
  const lines = frame.split('\n');
  const header = lines.find((l) => /^ {7} Mon \d/.test(l))!;
  for (const line of lines) {
    const at = line.indexOf('[');
    if (at < 0 || !/^\d\d:\d\d/.test(line)) continue;
    const day = header.slice(at, at + 7).trim();
    return { day, time: line.slice(at + 1, at + 6) };
  }
  return undefined;
}

afterEach(() => vi.restoreAllMocks());

describe('slot grid', () => {
  it('lays the week out with days as columns and local times as rows, highlighting the earliest free slot', () => {
    const { app } = grid();
    expect(app.lastFrame()).toBe(
      [
        'Week of Mon 7 Dec 2026  (Europe/Berlin)',
        '        Mon 7  Tue 8  Wed 9  Thu 10 Fri 11 Sat 12 Sun 13',
        '09:00  [09:00]   ·      ·    09:00    ·      ·      ·',
        '10:00   10:00  10:00    ·      ·      ·      ·      ·',
        '11:00     ·      ·      ·    11:00    ·      ·      ·',
        'Selected: Mon 7 Dec 2026 09:00–09:30',
        '←↑↓→ move  n next week  p previous week  enter book  esc quit',
      ].join('\n'),
    );
    app.unmount();
  });

  it('moves the highlight with the arrow keys, only onto free slots', async () => {
    const { app } = grid();
    await press(app, KEY.down);
    expect(highlighted(app.lastFrame()!)).toEqual({ day: 'Mon 7', time: '10:00' });
    // Right from Mon 10:00: Tue has 10:00.
    await press(app, KEY.right);
    expect(highlighted(app.lastFrame()!)).toEqual({ day: 'Tue 8', time: '10:00' });
    // Right again skips full Wednesday to Thursday, at the free time nearest 10:00 (09:00 wins the tie with 11:00).
    await press(app, KEY.right);
    expect(highlighted(app.lastFrame()!)).toEqual({ day: 'Thu 10', time: '09:00' });
    // Down on Thursday skips the taken 10:00.
    await press(app, KEY.down);
    expect(highlighted(app.lastFrame()!)).toEqual({ day: 'Thu 10', time: '11:00' });
    // Nothing free further right or down: it stays.
    await press(app, KEY.right, KEY.down);
    expect(highlighted(app.lastFrame()!)).toEqual({ day: 'Thu 10', time: '11:00' });
    await press(app, KEY.left, KEY.up);
    expect(highlighted(app.lastFrame()!)).toEqual({ day: 'Tue 8', time: '10:00' });
    expect(app.lastFrame()).toContain('Selected: Tue 8 Dec 2026 10:00–10:30');
    app.unmount();
  });

  it('enter picks the highlighted slot', async () => {
    const { app, onPick } = grid();
    await press(app, KEY.right, KEY.enter);
    expect(onPick).toHaveBeenCalledExactlyOnceWith(SLOTS[2]);
    app.unmount();
  });

  it('n and p ask for the next and previous week; p not before the first week', async () => {
    const { app, onWeek } = grid();
    await press(app, 'n', 'p');
    expect(onWeek.mock.calls).toEqual([[1], [-1]]);
    app.unmount();

    const first = grid({ canGoBack: false });
    await press(first.app, 'p', 'n');
    expect(first.onWeek.mock.calls).toEqual([[1]]);
    expect(first.app.lastFrame()).toContain('n next week  enter book');
    first.app.unmount();
  });

  it('a new week starts at its own earliest free slot', async () => {
    const { app, onPick, onWeek, onCancel } = grid();
    await press(app, KEY.down, KEY.right);
    const next = weekStarting('2026-12-14', ZONE);
    const nextSlots = [slot('2026-12-16', 14, 30)];
    app.rerender(h(SlotGrid, { days: next.days, slots: nextSlots, zone: ZONE, color: false, canGoBack: true, onPick, onWeek, onCancel }));
    await press(app);
    expect(highlighted(app.lastFrame()!)).toEqual({ day: 'Wed 16', time: '14:30' });
    await press(app, KEY.enter);
    expect(onPick).toHaveBeenCalledExactlyOnceWith(nextSlots[0]);
    app.unmount();
  });

  it('shows a spinner while the week loads, and says when a week has nothing free', async () => {
    const loading = grid({ slots: undefined });
    expect(loading.app.lastFrame()).toMatch(/Loading free times…/);
    await press(loading.app, KEY.enter);
    expect(loading.onPick).not.toHaveBeenCalled();
    loading.app.unmount();

    const empty = grid({ slots: [] });
    expect(empty.app.lastFrame()).toContain('No free times this week.');
    expect(empty.app.lastFrame()).not.toContain('Selected');
    empty.app.unmount();
  });

  it('scrolls its rows to keep the highlight on a short screen', async () => {
    // Monday free every hour from 08:00 to 15:00: eight rows, four fit (two of them markers).
    const hourly = Array.from({ length: 8 }, (_, i) => slot('2026-12-07', 8 + i));
    const { app } = grid({ slots: hourly, maxRows: 4 });
    expect(app.lastFrame()).toContain('08:00  [08:00]');
    expect(app.lastFrame()).toContain('09:00   09:00');
    expect(app.lastFrame()).toContain('  ↓ 6 later');
    expect(app.lastFrame()).not.toContain('10:00');
    await press(app, ...Array(5).fill(KEY.down));
    const frame = app.lastFrame()!;
    expect(frame).toContain('  ↑ 4 earlier');
    expect(frame).toContain('13:00  [13:00]');
    expect(frame).toContain('  ↓ 2 later');
    expect(frame).not.toContain('11:00');
    app.unmount();
  });

  it('esc and q quit', async () => {
    for (const key of [KEY.escape, 'q']) {
      const { app, onCancel } = grid();
      await press(app, key);
      expect(onCancel).toHaveBeenCalledTimes(1);
      app.unmount();
    }
  });

  it('keys faster than a redraw: two quick arrows move twice, and a double enter picks once', async () => {
    const { app, onPick } = grid();
    await press(app);
    app.stdin.write(KEY.right);
    app.stdin.write(KEY.right);
    app.stdin.write(KEY.enter);
    app.stdin.write(KEY.enter);
    await press(app);
    expect(onPick).toHaveBeenCalledExactlyOnceWith(SLOTS[3]);
    app.unmount();
  });
});

describe('slot grid model', () => {
  it('shows every row that fits, else a window around the highlight', () => {
    expect(visibleRows(5, 4, undefined)).toEqual([0, 5]);
    expect(visibleRows(5, 4, 5)).toEqual([0, 5]);
    expect(visibleRows(10, 0, 5)).toEqual([0, 3]);
    expect(visibleRows(10, 5, 5)).toEqual([4, 7]);
    expect(visibleRows(10, 9, 5)).toEqual([7, 10]);
  });

  it('reads days and times in the viewer zone, so a slot late in UTC lands on the next local day', () => {
    // 23:30Z on Mon 7 Dec is 00:30 on Tue 8 Dec in Berlin.
    const late = { start: '2026-12-07T23:30:00.000Z', end: '2026-12-08T00:00:00.000Z' };
    const g = buildGrid(WEEK.days, [late], ZONE);
    expect(g.times).toEqual(['00:30']);
    expect(g.slotAt(1, 0)).toBe(late);
    expect(g.slotAt(0, 0)).toBeUndefined();
  });

  it('leaves out slots outside the week', () => {
    const g = buildGrid(WEEK.days, [slot('2026-12-14', 9)], ZONE);
    expect(g.times).toEqual([]);
    expect(firstCursor(g)).toBeUndefined();
  });

  it('a week crossing the fall-back change spans 169 hours and keeps local rows', () => {
    // Berlin leaves summer time on Sun 25 Oct 2026.
    const week = weekStarting('2026-10-19', ZONE);
    expect(week.start).toBe('2026-10-18T22:00:00.000Z');
    expect(week.end).toBe('2026-10-25T23:00:00.000Z');
    const g = buildGrid(
      week.days,
      [
        { start: '2026-10-19T07:00:00.000Z', end: '' },
        { start: '2026-10-25T08:00:00.000Z', end: '' },
      ],
      ZONE,
    );
    expect(g.times).toEqual(['09:00']);
    expect(moveCursor(g, firstCursor(g)!, 'right')).toEqual({ col: 6, row: 0 });
  });
});
