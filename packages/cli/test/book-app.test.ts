import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { BookingItem, EventTypeItem } from '../src/interactive/api-items.js';
import { type BookApi, BookApp, type BookOutcome } from '../src/interactive/book-app.js';
import type { Slot } from '../src/interactive/slot-grid-model.js';
import type { Week } from '../src/interactive/week.js';
import { frameWhere, KEY, press } from './support/ink-keys.js';

// Sunday 22 Nov 2026, 07:00 in Berlin: the current week (from Mon 16) is nearly over.
const NOW = Date.parse('2026-11-22T06:00:00.000Z');
const ZONE = 'Europe/Berlin';

const INTRO: EventTypeItem = {
  id: 'e-1',
  slug: 'intro',
  name: 'Intro call',
  owner: { user_id: 'u-1', username: 'alice' },
  duration_minutes: 30,
  status: 'on',
  recurring: 'on',
  timezone: ZONE,
};
const RETIRED: EventTypeItem = { ...INTRO, id: 'e-2', slug: 'old', name: 'Retired call', status: 'off' };

const SLOTS: Record<string, Slot[]> = {
  '2026-11-16': [],
  '2026-11-23': [
    { start: '2026-11-24T08:00:00.000Z', end: '2026-11-24T08:30:00.000Z' },
    { start: '2026-11-25T13:00:00.000Z', end: '2026-11-25T13:30:00.000Z' },
  ],
  '2026-11-30': [{ start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T09:30:00.000Z' }],
};

function fakeApi() {
  const booked: BookingItem = {
    uid: 'b-new',
    title: 'Intro call between Alice and kim@example.com',
    status: 'confirmed',
    start_at: '2026-11-25T13:00:00.000Z',
    end_at: '2026-11-25T13:30:00.000Z',
  };
  return {
    eventTypes: vi.fn(async () => [INTRO, RETIRED]),
    slots: vi.fn(async (_: EventTypeItem, week: Week) => SLOTS[week.monday] ?? []),
    book: vi.fn(async () => booked),
  } satisfies BookApi;
}

function start(eventTypes: EventTypeItem[] = [INTRO, RETIRED]) {
  const api = fakeApi();
  api.eventTypes.mockResolvedValue(eventTypes);
  const onDone = vi.fn<(outcome: BookOutcome) => void>();
  const app = render(h(BookApp, { api, zone: ZONE, nowMs: NOW, color: false, onDone }));
  return { api, onDone, app };
}

describe('book', () => {
  it('event type, a week of slots, attendee, confirmation, then the booking in the viewer zone', async () => {
    const { api, onDone, app } = start();
    const types = await frameWhere(app, (f) => f.includes('Book which event type?'));
    expect(types).toContain('› Intro call  alice/intro · 30 min');
    expect(types).not.toContain('Retired');
    await press(app, KEY.enter);

    // The current week has nothing left, so the first view is the next one.
    const grid = await frameWhere(app, (f) => f.includes('Selected:'));
    expect(grid).toContain('Week of Mon 23 Nov 2026  (Europe/Berlin)');
    expect(api.slots.mock.calls.map(([eventType, week]) => [eventType.id, week.start, week.end])).toEqual([
      ['e-1', '2026-11-15T23:00:00.000Z', '2026-11-22T23:00:00.000Z'],
      ['e-1', '2026-11-22T23:00:00.000Z', '2026-11-29T23:00:00.000Z'],
    ]);
    expect(grid).toContain('Selected: Tue 24 Nov 2026 09:00–09:30');
    await press(app, KEY.right, KEY.enter);

    expect(app.lastFrame()).toContain('Intro call, Wed 25 Nov 2026 14:00 (Europe/Berlin)');
    await press(app, ...'kim@example.com', KEY.enter);
    expect(app.lastFrame()).toContain('Attendee name (optional):');
    await press(app, KEY.enter);
    expect(app.lastFrame()).toBe('Book Intro call with kim@example.com on Wed 25 Nov 2026 14:00 (Europe/Berlin)? [Y/n]');
    expect(api.book).not.toHaveBeenCalled();
    await press(app, 'y');

    const done = await frameWhere(app, (f) => f.startsWith('Booked'));
    expect(done).toBe(
      ['Booked b-new', 'Intro call between Alice and kim@example.com', 'Wed 25 Nov 2026 14:00–14:30 (Europe/Berlin)'].join('\n'),
    );
    expect(api.book).toHaveBeenCalledExactlyOnceWith({
      eventType: INTRO,
      start: '2026-11-25T13:00:00.000Z',
      email: 'kim@example.com',
      responses: {},
    });
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ kind: 'booked', booking: await api.book.mock.results[0]!.value });
    app.unmount();
  });

  it('n and p browse weeks; p stops at the current week', async () => {
    const { api, app } = start();
    await frameWhere(app, (f) => f.includes('Book which event type?'));
    await press(app, KEY.enter);
    await frameWhere(app, (f) => f.includes('Week of Mon 23 Nov'));
    await press(app, 'n');
    expect(await frameWhere(app, (f) => f.includes('Selected:'))).toContain('Week of Mon 30 Nov 2026');
    await press(app, 'p', 'p');
    await frameWhere(app, (f) => f.includes('Week of Mon 16 Nov 2026') && f.includes('No free times this week.'));
    await press(app, 'p');
    expect(app.lastFrame()).toContain('Week of Mon 16 Nov 2026');
    expect(app.lastFrame()).not.toContain('p previous week');
    expect(api.slots.mock.calls.map(([, week]) => week.monday)).toEqual([
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
      '2026-11-23',
      '2026-11-16',
    ]);
    app.unmount();
  });

  it('no at the confirmation goes back to the week; esc ends without booking', async () => {
    const { api, onDone, app } = start();
    await frameWhere(app, (f) => f.includes('Book which event type?'));
    await press(app, KEY.enter);
    await frameWhere(app, (f) => f.includes('Selected:'));
    await press(app, KEY.enter, ...'kim@example.com', KEY.enter, KEY.enter, 'n');
    await frameWhere(app, (f) => f.includes('Selected: Tue 24 Nov 2026 09:00–09:30'));
    await press(app, KEY.escape);
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ kind: 'canceled' });
    expect(api.book).not.toHaveBeenCalled();
    app.unmount();
  });

  it('a refused booking ends the flow with the error, for the CLI to print and map to an exit code', async () => {
    const { api, onDone, app } = start();
    const taken = Object.assign(new Error('The slot is no longer free.'), { code: 'slot_unavailable' });
    api.book.mockRejectedValueOnce(taken);
    await frameWhere(app, (f) => f.includes('Book which event type?'));
    await press(app, KEY.enter);
    await frameWhere(app, (f) => f.includes('Selected:'));
    await press(app, KEY.enter, ...'kim@example.com', KEY.enter, KEY.enter, KEY.enter);
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ kind: 'failed', error: taken });
    app.unmount();
  });

  it("asks the attendee's name and every question of the form before the confirmation; a required one cannot be left blank", async () => {
    const form: EventTypeItem = {
      ...INTRO,
      questions: [
        { id: 'agenda', label: 'Agenda', type: 'text', required: true },
        { id: 'room', label: 'Room', type: 'select', options: ['north', 'south'], required: false },
        { id: 'seats', label: 'Seats', type: 'number', required: false },
        { id: 'recorded', label: 'Record it', type: 'boolean', required: false },
      ],
    };
    const { api, app } = start([form]);
    await frameWhere(app, (f) => f.includes('Book which event type?'));
    await press(app, KEY.enter);
    await frameWhere(app, (f) => f.includes('Selected:'));
    await press(app, KEY.enter, ...'kim@example.com', KEY.enter, ...'Kim Lee', KEY.enter);

    expect(app.lastFrame()).toContain('Agenda:');
    await press(app, KEY.enter);
    expect(app.lastFrame()).toContain('An answer is required.');
    await press(app, ...'Pricing', KEY.enter);

    expect(app.lastFrame()).toContain('Room (optional)');
    expect(app.lastFrame()).toContain('(no answer)');
    await press(app, KEY.down, KEY.enter);

    expect(app.lastFrame()).toContain('Seats (optional):');
    await press(app, ...'many', KEY.enter);
    expect(app.lastFrame()).toContain('The answer must be a number.');
    await press(app, ...Array(4).fill(KEY.backspace), KEY.enter);

    expect(app.lastFrame()).toBe('Record it (optional)? [Y/n]');
    await press(app, 'n');
    expect(app.lastFrame()).toBe('Book Intro call with Kim Lee <kim@example.com> on Tue 24 Nov 2026 09:00 (Europe/Berlin)? [Y/n]');
    expect(api.book).not.toHaveBeenCalled();
    await press(app, 'y');
    await frameWhere(app, (f) => f.startsWith('Booked'));
    expect(api.book).toHaveBeenCalledExactlyOnceWith({
      eventType: form,
      start: '2026-11-24T08:00:00.000Z',
      email: 'kim@example.com',
      name: 'Kim Lee',
      responses: { agenda: 'Pricing', room: 'south', recorded: false },
    });
    app.unmount();
  });
});
