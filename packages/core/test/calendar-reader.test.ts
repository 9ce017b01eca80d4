import { describe, expect, it } from 'vitest';
import type { Interval } from '../src/availability/busy.js';
import {
  type CalDavBusyReader,
  CalendarUnreadable,
  createCalendarReader,
  type IcsFeedReader,
} from '../src/availability/calendar-reader.js';
import type { CalDavCalendar, Calendar } from '../src/event-types/calendar.js';

const ms = (iso: string) => Date.parse(iso);
const span = (from: string, to: string): Interval => ({ startMs: ms(from), endMs: ms(to) });
/** 2026-03-02, 09:00–17:00 UTC. */
const RANGE = span('2026-03-02T09:00:00Z', '2026-03-02T17:00:00Z');

const staticCalendar = (...busy: [string, string][]): Calendar => ({
  kind: 'static',
  writable: true,
  busy: busy.map(([start, end]) => ({ start, end })),
});
const ACCOUNT: CalDavCalendar = { kind: 'caldav', url: 'https://dav.example.com/', username: 'hana', password_env: 'HANA_DAV' };

/** A reader that must not be asked: the calendars given hold none of its kind. */
const noIcs: IcsFeedReader = async () => {
  throw new Error('no feed should be read');
};

describe('createCalendarReader', () => {
  describe('a static calendar', () => {
    it('gives the busy times that overlap the range, whole, and leaves out those that only touch it (half-open)', async () => {
      const calendar = staticCalendar(
        ['2026-03-02T08:00:00.000Z', '2026-03-02T09:00:00.000Z'],
        ['2026-03-02T08:30:00.000Z', '2026-03-02T09:30:00.000Z'],
        ['2026-03-02T12:00:00.000Z', '2026-03-02T13:00:00.000Z'],
        ['2026-03-02T16:30:00.000Z', '2026-03-02T18:00:00.000Z'],
        ['2026-03-02T17:00:00.000Z', '2026-03-02T18:00:00.000Z'],
      );
      expect(await createCalendarReader(noIcs).busy([calendar], RANGE, 'UTC')).toEqual([
        span('2026-03-02T08:30:00.000Z', '2026-03-02T09:30:00.000Z'),
        span('2026-03-02T12:00:00.000Z', '2026-03-02T13:00:00.000Z'),
        span('2026-03-02T16:30:00.000Z', '2026-03-02T18:00:00.000Z'),
      ]);
    });
  });

  it('reads a feed through the feed reader, with its URL, the range and the host zone', async () => {
    const asked: unknown[] = [];
    const readIcs: IcsFeedReader = async (url, range, zone) => {
      asked.push([url, range, zone]);
      return [span('2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z')];
    };
    const feed: Calendar = { kind: 'ics', url: 'https://feeds.example.com/hana.ics', writable: false };
    expect(await createCalendarReader(readIcs).busy([feed], RANGE, 'Europe/Berlin')).toEqual([
      span('2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z'),
    ]);
    expect(asked).toEqual([['https://feeds.example.com/hana.ics', RANGE, 'Europe/Berlin']]);
  });

  it('reads a CalDAV account through the CalDAV reader, with the account, the range and the host zone', async () => {
    const asked: unknown[] = [];
    const readCalDav: CalDavBusyReader = async (calendar, range, zone) => {
      asked.push([calendar, range, zone]);
      return [span('2026-03-02T14:00:00Z', '2026-03-02T15:00:00Z')];
    };
    expect(await createCalendarReader(noIcs, readCalDav).busy([ACCOUNT], RANGE, 'Asia/Tokyo')).toEqual([
      span('2026-03-02T14:00:00Z', '2026-03-02T15:00:00Z'),
    ]);
    expect(asked).toEqual([[ACCOUNT, RANGE, 'Asia/Tokyo']]);
  });

  it('without a CalDAV reader, a CalDAV account cannot be read: CalendarUnreadable naming the account', async () => {
    const failure = await createCalendarReader(noIcs)
      .busy([ACCOUNT], RANGE, 'UTC')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CalendarUnreadable);
    expect(failure).toMatchObject({
      name: 'CalendarUnreadable',
      message: 'CalDAV account hana cannot be read: this process reads no CalDAV calendars',
    });
  });

  it('gives the busy times of every calendar, in the order of the calendars', async () => {
    const readIcs: IcsFeedReader = async () => [span('2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z')];
    const calendars: Calendar[] = [
      staticCalendar(['2026-03-02T15:00:00.000Z', '2026-03-02T16:00:00.000Z']),
      { kind: 'ics', url: 'https://feeds.example.com/hana.ics', writable: false },
    ];
    expect(await createCalendarReader(readIcs).busy(calendars, RANGE, 'UTC')).toEqual([
      span('2026-03-02T15:00:00.000Z', '2026-03-02T16:00:00.000Z'),
      span('2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z'),
    ]);
  });
});
