import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import { agendaLines, agendaQuery, groupByDay, listsOthers } from '../src/interactive/agenda.js';
import { AgendaView, renderAgenda } from '../src/interactive/agenda-view.js';
import type { BookingItem } from '../src/interactive/api-items.js';

function booking(uid: string, start: string, minutes: number, attendee: string): BookingItem {
  return {
    uid,
    title: `Intro call between Alice and ${attendee}`,
    status: 'confirmed',
    start_at: start,
    end_at: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
    host: { username: 'alice' },
    attendees: [{ email: `${attendee.toLowerCase()}@example.com`, name: attendee }],
  };
}

// In start order, as list_bookings sorts them (start_at_asc).
const BOOKINGS = [
  booking('b-1', '2026-11-23T08:00:00.000Z', 30, 'Kim'),
  booking('b-2', '2026-11-23T23:30:00.000Z', 30, 'Lee'),
  booking('b-3', '2026-11-24T09:00:00.000Z', 60, 'Max'),
  booking('b-4', '2026-11-27T15:00:00.000Z', 30, 'Ana'),
];

describe('agenda grouping', () => {
  it('groups by the day a booking starts on in the viewer zone', () => {
    // 23:30Z on the 23rd is already the 24th in Berlin, still the 23rd in New York.
    expect(groupByDay(BOOKINGS, 'Europe/Berlin').map((d) => [d.date, d.bookings.map((b) => b.uid)])).toEqual([
      ['2026-11-23', ['b-1']],
      ['2026-11-24', ['b-2', 'b-3']],
      ['2026-11-27', ['b-4']],
    ]);
    expect(groupByDay(BOOKINGS, 'America/New_York').map((d) => [d.date, d.bookings.map((b) => b.uid)])).toEqual([
      ['2026-11-23', ['b-1', 'b-2']],
      ['2026-11-24', ['b-3']],
      ['2026-11-27', ['b-4']],
    ]);
    expect(groupByDay([], 'UTC')).toEqual([]);
  });

  it('on a terminal, draws a heading per day (today and tomorrow by name) and local times', () => {
    const days = groupByDay(BOOKINGS, 'Europe/Berlin');
    const app = render(h(AgendaView, { days, zone: 'Europe/Berlin', color: false, today: '2026-11-23', span: 7 }));
    expect(app.lastFrame()).toBe(
      [
        'Agenda, next 7 days (Europe/Berlin)',
        '',
        'Mon 23 Nov 2026 · today',
        '  09:00–09:30  Intro call between Alice and Kim  kim@example.com',
        '',
        'Tue 24 Nov 2026 · tomorrow',
        '  00:30–01:00  Intro call between Alice and Lee  lee@example.com',
        '  10:00–11:00  Intro call between Alice and Max  max@example.com',
        '',
        'Fri 27 Nov 2026',
        '  16:00–16:30  Intro call between Alice and Ana  ana@example.com',
      ].join('\n'),
    );
    app.unmount();
  });

  it('says so when nothing is booked, and renders to plain text without colour when colour is off', () => {
    const text = renderAgenda({ days: [], zone: 'UTC', color: false, today: '2026-11-23', span: 1 }, 80);
    expect(text).toBe('Agenda, next 1 day (UTC)\nNothing booked.\n');
    const coloured = renderAgenda({ days: groupByDay(BOOKINGS, 'UTC'), zone: 'UTC', color: false, today: '2026-11-23', span: 7 }, 80);
    expect(coloured).not.toContain('\u001b');
  });

  it('piped, prints one tab-separated line per booking: local day, start, end, uid, host, attendee, title', () => {
    expect(agendaLines(groupByDay(BOOKINGS.slice(0, 2), 'Europe/Berlin'))).toBe(
      [
        '2026-11-23\t2026-11-23T08:00:00.000Z\t2026-11-23T08:30:00.000Z\tb-1\talice\tkim@example.com\tIntro call between Alice and Kim\n',
        '2026-11-24\t2026-11-23T23:30:00.000Z\t2026-11-24T00:00:00.000Z\tb-2\talice\tlee@example.com\tIntro call between Alice and Lee\n',
      ].join(''),
    );
  });

  it('asks list_bookings for confirmed bookings from now on, soonest first', () => {
    expect(agendaQuery(Date.parse('2026-11-22T06:00:00.000Z'), 7)).toEqual({
      start_date: '2026-11-22T06:00:00.000Z',
      end_date: '2026-11-29T06:00:00.000Z',
      status: 'confirmed',
      sort: 'start_at_asc',
    });
  });
});

describe('agenda host column (issue 11)', () => {
  const others = [BOOKINGS[0]!, { ...BOOKINGS[2]!, host: { username: 'bob' } }];

  it('lists others when a booking is hosted by someone else than the viewer', () => {
    expect(listsOthers(BOOKINGS, { username: 'alice', timezone: 'UTC' })).toBe(false);
    expect(listsOthers(others, { username: 'alice', timezone: 'UTC' })).toBe(true);
  });

  it('with showHost, each line names its host after the time, padded to a column', () => {
    const props = { zone: 'UTC', color: false, today: '2026-11-23', span: 7 };
    const days = groupByDay(others, 'UTC');
    const text = renderAgenda({ ...props, days, showHost: true }, 100);
    expect(text).toContain('  08:00–08:30  alice  Intro call between Alice and Kim');
    expect(text).toContain('  09:00–10:00  bob    Intro call between Alice and Max');
    expect(renderAgenda({ ...props, days }, 100)).toContain('  08:00–08:30  Intro call between Alice and Kim');
  });
});
