import { describe, expect, it } from 'vitest';
import type { HostTime, SlotPolicy } from '../src/availability/slot-rules.js';
import type { Schedule } from '../src/event-types/schedule.js';
import { BookedHere, coversAll, HOST_MOVE_RULES, isFreeFor, type SeriesHostTime, skipCauseAt } from '../src/series/series-availability.js';
import { POLICY } from './support/slot-policy.js';

// The pure rules a series judges its dates by (series-availability.ts); the
// storage suites (series-*.test.ts) pin the same rules through the actions.

const ms = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

/** Monday 2026-03-02 09:00-17:00 UTC. */
const MONDAY: Schedule = { timezone: 'UTC', weekly: { mon: [['09:00', '17:00']] }, overrides: [] };

/** Monday 2026-03-02 08:00 UTC, the hour before the working day. */
const NOW = '2026-03-02T08:00:00Z';

function hostTime(options: { policy?: Partial<SlotPolicy>; busy?: [string, string][]; now?: string } = {}): HostTime {
  return {
    policy: { ...POLICY, ...options.policy },
    schedule: MONDAY,
    zone: 'UTC',
    busy: (options.busy ?? []).map(([from, to]) => ({ startMs: ms(from), endMs: ms(to) })),
    nowMs: ms(options.now ?? NOW),
  };
}

describe('skipCauseAt', () => {
  it('answers nothing for a start the host is free at, and isFreeFor agrees', () => {
    const time = hostTime();
    expect(skipCauseAt(time, ms('2026-03-02T10:00:00Z'))).toBeUndefined();
    expect(isFreeFor(time, ms('2026-03-02T10:00:00Z'))).toBe(true);
    expect(isFreeFor(time, ms('2026-03-02T18:00:00Z'))).toBe(false);
  });

  it.each([
    ['an inactive event type', { policy: { status: 'off' } }, '2026-03-02T10:00:00Z', 'event_type_inactive'],
    ['a start within the minimum notice', { policy: { minimumNoticeMinutes: 180 } }, '2026-03-02T10:00:00Z', 'outside_minimum_notice'],
    // Only a clock that went back between the read and the judging gives one: it is inside any notice.
    ['a start already past', { now: '2026-03-02T11:00:00Z' }, '2026-03-02T10:00:00Z', 'outside_minimum_notice'],
    ['a start past the future limit', { policy: { futureLimitDays: 1 } }, '2026-03-09T10:00:00Z', 'outside_future_limit'],
    ['a start outside working hours', {}, '2026-03-02T16:45:00Z', 'outside_working_hours'],
    [
      'a start in busy time',
      { busy: [['2026-03-02T10:15:00Z', '2026-03-02T10:20:00Z']] as [string, string][] },
      '2026-03-02T10:00:00Z',
      'busy',
    ],
  ] as const)('names why a date is skipped: %s is %s', (_, options, start, cause) => {
    expect(skipCauseAt(hostTime(options), ms(start))).toBe(cause);
  });

  it('reports a start off the slot grid as busy when the rules hold it to the grid (occurrences and moves are not)', () => {
    const time = hostTime();
    expect(skipCauseAt(time, ms('2026-03-02T10:10:00Z'), { grid: true })).toBe('busy');
    expect(skipCauseAt(time, ms('2026-03-02T10:10:00Z'))).toBeUndefined();
    expect(skipCauseAt(time, ms('2026-03-02T10:10:00Z'), HOST_MOVE_RULES)).toBeUndefined();
  });

  it('holds a move to neither the minimum notice nor the future limit', () => {
    const time = hostTime({ policy: { minimumNoticeMinutes: 180, futureLimitDays: 1 } });
    expect(skipCauseAt(time, ms('2026-03-02T10:00:00Z'), HOST_MOVE_RULES)).toBeUndefined();
    expect(skipCauseAt(time, ms('2026-03-09T10:00:00Z'), HOST_MOVE_RULES)).toBeUndefined();
  });
});

describe('coversAll', () => {
  /** A read of the starts 2026-03-09 10:00 to 2026-03-16 10:00, made at NOW, with a 30-day future limit. */
  const read: SeriesHostTime = {
    time: hostTime({ policy: { futureLimitDays: 30 } }),
    covers: { startMs: ms('2026-03-09T10:00:00Z'), endMs: ms('2026-03-16T10:00:00Z') + 1 },
  };

  it('covers the starts from its first up to its last, both included', () => {
    expect(coversAll(read, [ms('2026-03-09T10:00:00Z'), ms('2026-03-11T10:00:00Z'), ms('2026-03-16T10:00:00Z')])).toBe(true);
    expect(coversAll(read, [])).toBe(true);
  });

  it('does not cover a start before its first or after its last: that start needs a new read', () => {
    expect(coversAll(read, [ms('2026-03-09T10:00:00Z') - 1])).toBe(false);
    expect(coversAll(read, [ms('2026-03-16T10:00:00Z') + 1])).toBe(false);
    expect(coversAll(read, [ms('2026-03-04T10:00:00Z'), ms('2026-03-11T10:00:00Z')])).toBe(false);
    expect(coversAll(read, [ms('2026-03-11T10:00:00Z'), ms('2026-03-16T11:00:00Z')])).toBe(false);
  });

  it('needs no read for a start past the future limit, but one for a start exactly at it', () => {
    const horizon = ms(NOW) + 30 * 24 * 60 * MINUTE;
    expect(coversAll(read, [ms('2026-03-11T10:00:00Z'), horizon + MINUTE, ms('2026-06-01T10:00:00Z')])).toBe(true);
    expect(coversAll(read, [horizon])).toBe(false);
  });

  it('a read for a move has no future limit: a start past it still needs the read', () => {
    expect(coversAll(read, [ms('2026-03-11T10:00:00Z')], HOST_MOVE_RULES)).toBe(true);
    expect(coversAll(read, [ms('2026-06-01T10:00:00Z')], HOST_MOVE_RULES)).toBe(false);
  });

  it('a read of no start covers only starts past the future limit', () => {
    const empty: SeriesHostTime = { ...read, covers: { startMs: 0, endMs: 0 } };
    expect(coversAll(empty, [ms('2026-06-01T10:00:00Z')])).toBe(true);
    expect(coversAll(empty, [ms('2026-03-09T10:00:00Z')])).toBe(false);
  });
});

describe('BookedHere', () => {
  /** 15 minutes before, 10 after; one occurrence booked 10:00-10:30. */
  const booked = () => {
    const here = new BookedHere({ bufferBeforeMinutes: 15, bufferAfterMinutes: 10 });
    here.add({ startMs: ms('2026-03-02T10:00:00Z'), endMs: ms('2026-03-02T10:30:00Z') });
    return here;
  };
  const slot = (from: string, to: string) => ({ startMs: ms(from), endMs: ms(to) });

  it('is clear of nothing booked', () => {
    const here = new BookedHere({ bufferBeforeMinutes: 15, bufferAfterMinutes: 10 });
    expect(here.isClear(slot('2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z'))).toBe(true);
  });

  it('keeps the buffer before a slot clear: a slot may start 15 minutes after the booked one ends, not sooner', () => {
    expect(booked().isClear(slot('2026-03-02T10:45:00Z', '2026-03-02T11:15:00Z'))).toBe(true);
    expect(booked().isClear(slot('2026-03-02T10:44:00Z', '2026-03-02T11:14:00Z'))).toBe(false);
  });

  it('keeps the buffer after a slot clear: a slot may end 10 minutes before the booked one starts, not later', () => {
    expect(booked().isClear(slot('2026-03-02T09:20:00Z', '2026-03-02T09:50:00Z'))).toBe(true);
    expect(booked().isClear(slot('2026-03-02T09:21:00Z', '2026-03-02T09:51:00Z'))).toBe(false);
  });

  it('is not clear of an overlap, and checks every booked slot', () => {
    const here = booked();
    here.add({ startMs: ms('2026-03-02T14:00:00Z'), endMs: ms('2026-03-02T14:30:00Z') });
    expect(here.isClear(slot('2026-03-02T10:15:00Z', '2026-03-02T10:45:00Z'))).toBe(false);
    expect(here.isClear(slot('2026-03-02T14:20:00Z', '2026-03-02T14:50:00Z'))).toBe(false);
    expect(here.isClear(slot('2026-03-02T12:00:00Z', '2026-03-02T12:30:00Z'))).toBe(true);
  });
});
