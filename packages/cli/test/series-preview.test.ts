import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { EventTypeItem, PersonItem } from '../src/interactive/api-items.js';
import { SeriesPreview, type SeriesPreviewData } from '../src/interactive/series-preview.js';
import {
  type SeriesCreated,
  type SeriesRequest,
  SeriesWizard,
  type SeriesWizardApi,
  type WizardOutcome,
} from '../src/interactive/series-wizard.js';
import { frameWhere, KEY, press } from './support/ink-keys.js';

const NOW = Date.parse('2026-11-22T06:00:00.000Z');
const BERLIN = 'Europe/Berlin';

describe('series preview', () => {
  it('lists every date in time order, booked or skipped with its cause, and counts them', () => {
    const preview: SeriesPreviewData = {
      timezone: BERLIN,
      occurrences: [
        { date: '2026-12-02', start_at: '2026-12-02T09:00:00.000Z' },
        { date: '2026-12-09', start_at: '2026-12-09T09:00:00.000Z' },
      ],
      skipped: [
        { date: '2026-12-07', start_at: '2026-12-07T09:00:00.000Z', cause: 'busy' },
        { date: '2026-12-14', start_at: '2026-12-14T09:00:00.000Z', cause: 'outside_future_limit' },
      ],
    };
    const app = render(h(SeriesPreview, { preview, color: false }));
    expect(app.lastFrame()).toBe(
      [
        'Dates (Europe/Berlin)',
        '  ✓ Wed 2 Dec 2026 10:00',
        '  ✗ Mon 7 Dec 2026 10:00  skipped: busy (a booking or calendar event)',
        '  ✓ Wed 9 Dec 2026 10:00',
        '  ✗ Mon 14 Dec 2026 10:00  skipped: too far ahead (future limit)',
        '2 of 4 will be booked; skipped dates are not moved to another day.',
        'Nothing is held meanwhile: a booking made before you confirm can still take a date.',
      ].join('\n'),
    );
    app.unmount();
  });

  it('says there is nothing to create when no date is free', () => {
    const preview: SeriesPreviewData = {
      timezone: 'UTC',
      occurrences: [],
      skipped: [{ date: '2026-12-05', start_at: '2026-12-05T10:00:00.000Z', cause: 'outside_working_hours' }],
    };
    const app = render(h(SeriesPreview, { preview, color: false }));
    expect(app.lastFrame()).toBe(
      [
        'Dates (UTC)',
        '  ✗ Sat 5 Dec 2026 10:00  skipped: outside working hours',
        'None of these dates is free: there is nothing to create.',
      ].join('\n'),
    );
    app.unmount();
  });
});

const INTRO: EventTypeItem = {
  id: '0b7d2a4e-3c1f-4e8a-9d2b-7a1c5e9f3b10',
  slug: 'intro',
  name: 'Intro call',
  owner: { user_id: 'u-bob', username: 'bob' },
  duration_minutes: 30,
  status: 'on',
  recurring: 'on',
  timezone: BERLIN,
};
const NO_SERIES: EventTypeItem = { ...INTRO, id: 'e-2', slug: 'once', name: 'One-off', recurring: 'off' };
const PEOPLE: PersonItem[] = [
  { user_id: 'u-alice', username: 'alice', name: 'Alice Host', email: 'alice@acme.test', timezone: 'UTC' },
  { user_id: 'u-bob', username: 'bob', name: 'Bob', email: 'bob@acme.test', timezone: BERLIN },
];

/** A backend whose preview skips the starts in `busy` (as busy) and books the rest of the pattern's dates it is given. */
function fakeApi(busy: readonly string[], dates: readonly { date: string; start_at: string }[] = DATES) {
  const created: SeriesCreated = {
    series: { uid: 'series-1' },
    occurrences: [{ uid: 'b-1', start_at: '2026-12-02T09:00:00.000Z' }],
    skipped: [{ date: '2026-12-07', start_at: '2026-12-07T09:00:00.000Z', cause: 'busy' }],
  };
  const api = {
    eventTypes: vi.fn(async () => [NO_SERIES, INTRO]),
    people: vi.fn(async () => PEOPLE),
    preview: vi.fn(
      async (request: SeriesRequest): Promise<SeriesPreviewData> => ({
        timezone: request.timezone,
        occurrences: dates.filter((d) => !busy.includes(d.start_at)),
        skipped: dates.filter((d) => busy.includes(d.start_at)).map((d) => ({ ...d, cause: 'busy' })),
      }),
    ),
    create: vi.fn(async (_: SeriesRequest) => created),
  } satisfies SeriesWizardApi;
  return { api, created };
}

/** The four dates of the wizard's weekly example: Mondays and Wednesdays 10:00 Berlin from 2026-12-01. */
const DATES = ['2026-12-02', '2026-12-07', '2026-12-09', '2026-12-14'].map((date) => ({ date, start_at: `${date}T09:00:00.000Z` }));

const REQUEST: SeriesRequest = {
  host_user_id: 'u-bob',
  event_type_id: INTRO.id,
  attendee: { email: 'kim@example.com' },
  frequency: 'weekly',
  weekdays: ['mon', 'wed'],
  time: '10:00',
  timezone: BERLIN,
  starts_on: '2026-12-01',
  count: 4,
};

describe('series wizard', () => {
  it('asks, previews the dates with the skipped ones marked, and creates on yes', async () => {
    const { api, created } = fakeApi(['2026-12-07T09:00:00.000Z']);
    const onDone = vi.fn<(o: WizardOutcome) => void>();
    const app = render(h(SeriesWizard, { api, nowMs: NOW, color: false, onDone }));

    // Only event types that allow series are offered.
    const types = await frameWhere(app, (f) => f.includes('Which event type?'));
    expect(types).not.toContain('One-off');
    await press(app, KEY.enter);
    // The host list starts on the event type's owner.
    expect(app.lastFrame()).toContain('› Bob');
    await press(app, KEY.enter);
    await press(app, ...'kim@example', KEY.enter);
    expect(app.lastFrame()).toContain('Type an email address');
    await press(app, ...'.com', KEY.enter);
    await press(app, KEY.enter); // weekly
    await press(app, KEY.right, KEY.right, KEY.space, KEY.enter); // mon (preselected) and wed
    expect(app.lastFrame()).toContain('At what time (Europe/Berlin)? 10:00');
    await press(app, KEY.enter);
    // starts_on defaults to today in the host's zone.
    expect(app.lastFrame()).toContain('Starting on (YYYY-MM-DD)? 2026-11-22');
    await press(app, ...Array(10).fill(KEY.backspace), ...'2026-12-01', KEY.enter);
    await press(app, KEY.backspace, '4', KEY.enter);

    const preview = await frameWhere(app, (f) => f.includes('Create this series?'));
    expect(preview).toContain('  ✓ Wed 2 Dec 2026 10:00');
    expect(preview).toContain('  ✗ Mon 7 Dec 2026 10:00  skipped: busy (a booking or calendar event)');
    expect(preview).toContain('3 of 4 will be booked');
    // One call, the create's very body: the server decides, not a check per date.
    expect(api.preview).toHaveBeenCalledExactlyOnceWith(REQUEST);
    expect(api.create).not.toHaveBeenCalled();

    await press(app, 'y');
    await frameWhere(app, (f) => f.includes('Created series series-1'));
    expect(api.create).toHaveBeenCalledExactlyOnceWith(REQUEST);
    expect(app.lastFrame()).toBe(
      [
        'Created series series-1',
        '1 booked, 1 skipped (Europe/Berlin)',
        '  ✓ Wed 2 Dec 2026 10:00',
        '  ✗ Mon 7 Dec 2026 10:00  skipped: busy (a booking or calendar event)',
      ].join('\n'),
    );
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ kind: 'created', result: created });
    app.unmount();
  });

  it('a monthly series asks no weekdays and sends none', async () => {
    const monthly = ['2026-11-22', '2026-12-22'].map((date) => ({ date, start_at: `${date}T10:00:00.000Z` }));
    const { api } = fakeApi([], monthly);
    const onDone = vi.fn();
    const app = render(h(SeriesWizard, { api, nowMs: NOW, color: false, onDone }));
    await frameWhere(app, (f) => f.includes('Which event type?'));
    await press(app, KEY.enter, KEY.up, KEY.enter, ...'kim@example.com', KEY.enter, KEY.down, KEY.enter);
    expect(app.lastFrame()).toContain('At what time (UTC)?');
    await press(app, KEY.enter, KEY.enter, KEY.backspace, '2', KEY.enter);
    await frameWhere(app, (f) => f.includes('Create this series?'));
    expect(app.lastFrame()).toContain('  ✓ Sun 22 Nov 2026 10:00');
    expect(app.lastFrame()).toContain('  ✓ Tue 22 Dec 2026 10:00');
    await press(app, KEY.enter);
    await frameWhere(app, (f) => f.includes('Created series'));
    const request = api.create.mock.calls[0]![0];
    expect(request).toMatchObject({
      host_user_id: 'u-alice',
      frequency: 'monthly_same_day',
      timezone: 'UTC',
      starts_on: '2026-11-22',
      count: 2,
    });
    expect(request).not.toHaveProperty('weekdays');
    app.unmount();
  });

  it('no at the preview creates nothing', async () => {
    const { api } = fakeApi([]);
    const onDone = vi.fn();
    const app = render(h(SeriesWizard, { api, nowMs: NOW, color: false, onDone }));
    await frameWhere(app, (f) => f.includes('Which event type?'));
    await press(app, KEY.enter, KEY.enter, ...'kim@example.com', KEY.enter, KEY.enter, KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    await frameWhere(app, (f) => f.includes('Create this series?'));
    await press(app, 'n');
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ kind: 'canceled' });
    expect(api.create).not.toHaveBeenCalled();
    app.unmount();
  });

  it('no date free: the dates stay on the screen with their causes, nothing is offered, and the wizard ends', async () => {
    const { api } = fakeApi(DATES.map((d) => d.start_at));
    const onDone = vi.fn();
    const app = render(h(SeriesWizard, { api, nowMs: NOW, color: false, onDone }));
    await frameWhere(app, (f) => f.includes('Which event type?'));
    await press(app, KEY.enter, KEY.enter, ...'kim@example.com', KEY.enter, KEY.enter, KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ kind: 'nothing_free', preview: await api.preview.mock.results[0]!.value });
    expect(app.lastFrame()).toContain('None of these dates is free: there is nothing to create.');
    expect(app.lastFrame()).not.toContain('Create this series?');
    expect(api.create).not.toHaveBeenCalled();
    app.unmount();
  });

  it('a failing call ends the wizard with its error', async () => {
    const { api } = fakeApi([]);
    const error = new Error('calendar down');
    api.preview.mockRejectedValueOnce(error);
    const onDone = vi.fn();
    const app = render(h(SeriesWizard, { api, nowMs: NOW, color: false, onDone }));
    await frameWhere(app, (f) => f.includes('Which event type?'));
    await press(app, KEY.enter, KEY.enter, ...'kim@example.com', KEY.enter, KEY.enter, KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    await frameWhere(app, () => onDone.mock.calls.length > 0);
    expect(onDone).toHaveBeenCalledExactlyOnceWith({ kind: 'failed', error });
    expect(api.create).not.toHaveBeenCalled();
    app.unmount();
  });
});
