import { renderToString } from 'ink';
import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CliError } from '../src/backend/backend.js';
import { groupByDay } from '../src/interactive/agenda.js';
import { type AgendaApi, AgendaApp, type ChangedBooking } from '../src/interactive/agenda-app.js';
import { AgendaView } from '../src/interactive/agenda-view.js';
import type { BookingItem } from '../src/interactive/api-items.js';
import type { Slot } from '../src/interactive/slot-grid-model.js';
import type { Week } from '../src/interactive/week.js';
import { frameWhere, KEY, press } from './support/ink-keys.js';

// Issue 29, item 11: the agenda acts on a meeting: choose it with the
// arrow keys, then cancel it (a reason, a confirmation whose enter says no)
// or move it to a free time on the slot grid (a confirmation). Monday
// 23 Nov 2026, 07:00 UTC; the viewer is in UTC.

const NOW = Date.parse('2026-11-23T07:00:00.000Z');
const ZONE = 'UTC';

function booking(uid: string, start: string, who: string): BookingItem {
  return {
    uid,
    event_type_id: 'e-1',
    title: `Intro call between Alice and ${who}`,
    status: 'confirmed',
    start_at: start,
    end_at: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
    host: { username: 'alice' },
    attendees: [{ email: `${who.toLowerCase()}@example.com`, name: who }],
  };
}

const KIM = booking('b-kim', '2026-11-24T09:00:00.000Z', 'Kim');
const LEE = booking('b-lee', '2026-11-25T14:00:00.000Z', 'Lee');
const FREE: Slot[] = [
  { start: '2026-11-26T10:00:00.000Z', end: '2026-11-26T10:30:00.000Z' },
  { start: '2026-11-27T11:00:00.000Z', end: '2026-11-27T11:30:00.000Z' },
];

function start(bookings: BookingItem[] = [KIM, LEE]) {
  let now = bookings;
  const changed = (b: BookingItem, more: Partial<BookingItem>): ChangedBooking => ({ ...b, ...more, version: 2 });
  const api = {
    bookings: vi.fn(async () => now),
    slots: vi.fn(async (_: BookingItem, week: Week) => (week.monday === '2026-11-23' ? FREE : [])),
    cancel: vi.fn(async (b: BookingItem, _reason: string | undefined) => {
      now = now.filter((x) => x.uid !== b.uid);
      return changed(b, { status: 'canceled' });
    }),
    reschedule: vi.fn(async (b: BookingItem, at: string) => {
      const moved = { ...b, start_at: at, end_at: new Date(Date.parse(at) + 30 * 60_000).toISOString() };
      now = [...now.filter((x) => x.uid !== b.uid), moved].sort((x, y) => (x.start_at < y.start_at ? -1 : 1));
      return changed(moved, {});
    }),
  } satisfies AgendaApi;
  const onDone = vi.fn();
  const app = render(h(AgendaApp, { api, bookings, zone: ZONE, nowMs: NOW, color: false, span: 7, showHost: false, onDone }));
  return { api, app, onDone };
}

describe('the agenda acts on a meeting', () => {
  it('marks the first meeting; ↓ and ↑ choose another; q leaves the agenda as it prints, unmarked', async () => {
    const { app, onDone } = start();
    const first = await frameWhere(app, (f) => f.includes('q quit'));
    expect(first).toContain('› 09:00–09:30  Intro call between Alice and Kim  kim@example.com');
    expect(first).toContain('  14:00–14:30  Intro call between Alice and Lee');
    await press(app, KEY.down);
    expect(app.lastFrame()).toContain('› 14:00–14:30  Intro call between Alice and Lee');
    await press(app, KEY.down, KEY.up);
    expect(app.lastFrame()).toContain('› 09:00–09:30  Intro call between Alice and Kim');
    await press(app, 'q');
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(app.lastFrame()).toBe(
      [
        'Agenda, next 7 days (UTC)',
        '',
        'Tue 24 Nov 2026 · tomorrow',
        '  09:00–09:30  Intro call between Alice and Kim  kim@example.com',
        '',
        'Wed 25 Nov 2026',
        '  14:00–14:30  Intro call between Alice and Lee  lee@example.com',
      ].join('\n'),
    );
    app.unmount();
  });

  it('c asks a reason, then a confirmation whose enter says no; y cancels, the agenda is read again and says what was done', async () => {
    const { api, app } = start();
    await frameWhere(app, (f) => f.includes('q quit'));
    await press(app, KEY.down, 'c');
    expect(app.lastFrame()).toContain('Cancel Intro call between Alice and Lee, Wed 25 Nov 2026 14:00–14:30 (UTC)');
    expect(app.lastFrame()).toContain('Reason (optional, sent to the attendee):');
    await press(app, ...'Out sick', KEY.enter);
    expect(app.lastFrame()).toBe('Cancel Intro call between Alice and Lee on Wed 25 Nov 2026 14:00–14:30 (UTC)? [y/N]');
    // Enter is no: back to the agenda, nothing canceled.
    await press(app, KEY.enter);
    await frameWhere(app, (f) => f.includes('q quit'));
    expect(api.cancel).not.toHaveBeenCalled();
    // The choice is kept: c again, no reason this time, and y.
    await press(app, 'c', KEY.enter, 'y');
    const after = await frameWhere(app, (f) => f.includes('✓ Canceled'));
    expect(api.cancel).toHaveBeenCalledExactlyOnceWith(LEE, undefined);
    expect(after).toContain('✓ Canceled Intro call between Alice and Lee on Wed 25 Nov 2026 14:00–14:30 (UTC) · uid b-lee');
    expect(after).not.toContain('and Lee  lee@');
    // The meeting now at its place is chosen.
    expect(after).toContain('› 09:00–09:30  Intro call between Alice and Kim');
    expect(api.bookings).toHaveBeenCalledTimes(1);
    app.unmount();
  });

  it('the reason is sent as typed; esc at the reason goes back to the agenda', async () => {
    const { api, app } = start();
    await frameWhere(app, (f) => f.includes('q quit'));
    await press(app, 'c', KEY.escape);
    await frameWhere(app, (f) => f.includes('q quit'));
    await press(app, 'c', ...'Out sick', KEY.enter, 'y');
    await frameWhere(app, (f) => f.includes('✓ Canceled'));
    expect(api.cancel).toHaveBeenCalledExactlyOnceWith(KIM, 'Out sick');
    app.unmount();
  });

  it('r shows the week of the meeting’s free times; enter picks one, y moves it there', async () => {
    const { api, app } = start();
    await frameWhere(app, (f) => f.includes('q quit'));
    await press(app, 'r');
    const grid = await frameWhere(app, (f) => f.includes('Selected:'));
    expect(grid).toContain('Move Intro call between Alice and Kim, now Tue 24 Nov 2026 09:00–09:30 (UTC), to:');
    expect(grid).toContain('Week of Mon 23 Nov 2026  (UTC)');
    expect(grid).toContain('enter choose  esc quit');
    await press(app, KEY.right, KEY.enter);
    expect(app.lastFrame()?.replace(/\n/g, ' ')).toBe(
      'Move Intro call between Alice and Kim from Tue 24 Nov 2026 09:00 (UTC) to Fri 27 Nov 2026 11:00–11:30 (UTC)? [Y/n]',
    );
    await press(app, 'y');
    const after = await frameWhere(app, (f) => f.includes('✓ Moved'));
    expect(api.reschedule).toHaveBeenCalledExactlyOnceWith(KIM, '2026-11-27T11:00:00.000Z');
    expect(after).toContain('✓ Moved Intro call between Alice and Kim to Fri 27 Nov 2026 11:00–11:30 (UTC) · uid b-kim');
    // Still the chosen one, now last.
    expect(after).toContain('› 11:00–11:30  Intro call between Alice and Kim');
    app.unmount();
  });

  it('enter opens a menu of both; a refusal is said on the agenda’s last line and nothing else changes', async () => {
    const { api, app } = start();
    api.reschedule.mockRejectedValueOnce(new CliError('slot_unavailable', 'The host is not free at this time.'));
    await frameWhere(app, (f) => f.includes('q quit'));
    await press(app, KEY.enter);
    expect(app.lastFrame()).toContain('› Cancel it…');
    await press(app, KEY.down, KEY.enter);
    await frameWhere(app, (f) => f.includes('Selected:'));
    await press(app, KEY.enter, KEY.enter);
    const after = await frameWhere(app, (f) => f.includes('error slot_unavailable'));
    expect(after).toContain('error slot_unavailable: The host is not free at this time.');
    expect(after).toContain('› 09:00–09:30  Intro call between Alice and Kim');
    app.unmount();
  });

  it('with more lines than fit, the agenda scrolls to keep the chosen meeting in view, saying how many are above and below', () => {
    const many = Array.from({ length: 8 }, (_, i) => booking(`b-${i}`, `2026-11-${24 + i}T09:00:00.000Z`, `P${i}`));
    const days = groupByDay(many, ZONE);
    const frame = (selected: string) =>
      renderToString(h(AgendaView, { days, zone: ZONE, color: false, today: '2026-11-23', span: 14, selected, maxLines: 7 }));
    expect(frame('b-0').split('\n')).toEqual([
      'Agenda, next 14 days (UTC)',
      '',
      'Tue 24 Nov 2026 · tomorrow',
      '› 09:00–09:30  Intro call between Alice and P0  p0@example.com',
      '',
      'Wed 25 Nov 2026',
      '  ↓ 19 more lines',
    ]);
    const middle = frame('b-4').split('\n');
    expect(middle[1]).toBe('  ↑ 12 more lines');
    expect(middle).toContain('› 09:00–09:30  Intro call between Alice and P4  p4@example.com');
    expect(middle.at(-1)).toBe('  ↓ 7 more lines');
    expect(middle).toHaveLength(8);
  });
});
