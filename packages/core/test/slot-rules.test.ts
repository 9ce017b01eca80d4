import { describe, expect, it } from 'vitest';
import { busyOf, checkStart, freeSlots, type HostTime, type SlotPolicy } from '../src/availability/slot-rules.js';
import type { Schedule } from '../src/event-types/schedule.js';
import { POLICY } from './support/slot-policy.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** Monday 2026-03-02, 09:00–12:00 and 13:00–17:00 UTC. */
const SPLIT_DAY: Schedule = {
  timezone: 'UTC',
  weekly: {
    mon: [
      ['09:00', '12:00'],
      ['13:00', '17:00'],
    ],
  },
  overrides: [],
};

interface TimeOptions {
  policy?: Partial<SlotPolicy>;
  schedule?: Schedule | null;
  busy?: [string, string][];
  now?: string;
}

function hostTime(options: TimeOptions = {}): HostTime {
  return {
    policy: { ...POLICY, ...options.policy },
    schedule: options.schedule === undefined ? SPLIT_DAY : options.schedule,
    zone: 'UTC',
    busy: busyOf(
      (options.busy ?? []).map(([from, to]) => ({ startMs: ms(from), endMs: ms(to) })),
      [],
    ),
    nowMs: ms(options.now ?? '2026-03-01T00:00:00Z'),
  };
}

/** The starts of the free slots in [from, to). */
function starts(time: HostTime, from: string, to: string): string[] {
  return freeSlots(time, { startMs: ms(from), endMs: ms(to) }).map((s) => iso(s.startMs));
}

const check = (time: HostTime, start: string, end?: string) => checkStart(time, ms(start), end === undefined ? undefined : ms(end));

const DAY = ['2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z'] as const;

describe('freeSlots', () => {
  it('anchors the grid at the start of each working interval (09:00–12:00 and 13:00–17:00, 45-minute step)', () => {
    const time = hostTime({ policy: { durationMinutes: 45, slotIntervalMinutes: 45 } });
    expect(starts(time, ...DAY)).toEqual([
      '2026-03-02T09:00:00.000Z',
      '2026-03-02T09:45:00.000Z',
      '2026-03-02T10:30:00.000Z',
      '2026-03-02T11:15:00.000Z',
      '2026-03-02T13:00:00.000Z',
      '2026-03-02T13:45:00.000Z',
      '2026-03-02T14:30:00.000Z',
      '2026-03-02T15:15:00.000Z',
      '2026-03-02T16:00:00.000Z',
    ]);
  });

  it('gives each slot the event type duration', () => {
    const [first] = freeSlots(hostTime({ policy: { durationMinutes: 45, slotIntervalMinutes: 15 } }), {
      startMs: ms(DAY[0]),
      endMs: ms(DAY[1]),
    });
    expect(first && [iso(first.startMs), iso(first.endMs)]).toEqual(['2026-03-02T09:00:00.000Z', '2026-03-02T09:45:00.000Z']);
  });

  it('includes a start equal to the range start and excludes one equal to the range end', () => {
    const time = hostTime({ policy: { durationMinutes: 45, slotIntervalMinutes: 45 } });
    expect(starts(time, '2026-03-02T09:45:00Z', '2026-03-02T11:15:00Z')).toEqual(['2026-03-02T09:45:00.000Z', '2026-03-02T10:30:00.000Z']);
  });

  it('leaves out a slot that touches busy time only at its edges (intervals are half-open)', () => {
    const time = hostTime({ busy: [['2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z']] });
    expect(starts(time, '2026-03-02T09:00:00Z', '2026-03-02T12:00:00Z')).toEqual([
      '2026-03-02T09:00:00.000Z',
      '2026-03-02T09:30:00.000Z',
      '2026-03-02T10:30:00.000Z',
      '2026-03-02T11:00:00.000Z',
      '2026-03-02T11:30:00.000Z',
    ]);
  });

  it('keeps buffers at both ends clear of a booking', () => {
    const time = hostTime({
      policy: { bufferBeforeMinutes: 15, bufferAfterMinutes: 15 },
      busy: [['2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z']],
    });
    expect(starts(time, '2026-03-02T09:00:00Z', '2026-03-02T12:00:00Z')).toEqual([
      '2026-03-02T09:00:00.000Z',
      '2026-03-02T11:00:00.000Z',
      '2026-03-02T11:30:00.000Z',
    ]);
  });

  it('starts the list at now plus the minimum notice', () => {
    const time = hostTime({ policy: { minimumNoticeMinutes: 60 }, now: '2026-03-02T08:01:00Z' });
    expect(starts(time, '2026-03-02T09:00:00Z', '2026-03-02T10:30:00Z')).toEqual(['2026-03-02T09:30:00.000Z', '2026-03-02T10:00:00.000Z']);
  });

  it('ends the list at now plus the future limit, that instant included', () => {
    const time = hostTime({ policy: { futureLimitDays: 14 }, now: '2026-03-02T09:00:00Z' });
    expect(starts(time, '2026-03-16T00:00:00Z', '2026-03-17T00:00:00Z')).toEqual(['2026-03-16T09:00:00.000Z']);
  });

  it('lists nothing for an inactive event type', () => {
    expect(starts(hostTime({ policy: { status: 'off' } }), ...DAY)).toEqual([]);
  });

  it('follows local time across the spring-forward change (Europe/Berlin 09:00–17:00, hourly)', () => {
    const berlin: Schedule = { timezone: 'Europe/Berlin', weekly: { sat: [['09:00', '17:00']], sun: [['09:00', '17:00']] }, overrides: [] };
    const time = hostTime({ schedule: berlin, policy: { durationMinutes: 60, slotIntervalMinutes: 60 } });
    const all = starts(time, '2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z');
    expect([all.length, all[0], all[7], all[8], all[15]]).toEqual([
      16,
      '2026-03-28T08:00:00.000Z',
      '2026-03-28T15:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-29T14:00:00.000Z',
    ]);
  });

  it('no schedule means free around the clock', () => {
    const time = hostTime({ schedule: null, policy: { durationMinutes: 60, slotIntervalMinutes: 60 } });
    const all = starts(time, ...DAY);
    expect([all.length, all[0], all[23]]).toEqual([24, '2026-03-02T00:00:00.000Z', '2026-03-02T23:00:00.000Z']);
  });

  it('anchors the grid of a host without a schedule at local midnight, not at the start of the query', () => {
    const time = hostTime({ schedule: null, policy: { durationMinutes: 30, slotIntervalMinutes: 30 } });
    expect(starts(time, '2026-03-02T09:10:00Z', '2026-03-02T10:10:00Z')).toEqual(['2026-03-02T09:30:00.000Z', '2026-03-02T10:00:00.000Z']);
  });

  it('lists each start once when two working intervals of a day overlap', () => {
    const overlapping: Schedule = {
      timezone: 'UTC',
      weekly: {
        mon: [
          ['09:00', '11:00'],
          ['10:00', '12:00'],
        ],
      },
      overrides: [],
    };
    const time = hostTime({ schedule: overlapping, policy: { durationMinutes: 60, slotIntervalMinutes: 60 } });
    expect(starts(time, ...DAY)).toEqual(['2026-03-02T09:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-02T11:00:00.000Z']);
  });
});

describe('checkStart', () => {
  const FREE = { available: true };
  const busy = { available: false, reason: 'slot_busy' };

  it('accepts a free start on the grid', () => {
    expect(check(hostTime(), '2026-03-02T13:30:00Z')).toEqual(FREE);
  });

  describe('the grid and working hours', () => {
    const time45 = hostTime({ policy: { durationMinutes: 45, slotIntervalMinutes: 45 } });

    it('anchors the grid at each working interval: 13:45 is on the afternoon grid', () => {
      expect(check(time45, '2026-03-02T13:45:00Z')).toEqual(FREE);
    });

    it('refuses 13:30, on the morning grid but not the afternoon one, as slot_busy', () => {
      expect(check(time45, '2026-03-02T13:30:00Z')).toEqual(busy);
    });

    it.each([
      ['off the grid', '2026-03-02T09:10:00Z'],
      ['in the lunch break', '2026-03-02T12:00:00Z'],
      ['after hours', '2026-03-02T18:00:00Z'],
      ['before hours', '2026-03-02T08:30:00Z'],
      ['on a day without hours', '2026-03-03T09:00:00Z'],
    ])('refuses a start %s as slot_busy', (_, start) => {
      expect(check(hostTime(), start)).toEqual(busy);
    });

    it('refuses a slot that would run past the end of its working interval as slot_busy', () => {
      expect(check(hostTime({ policy: { slotIntervalMinutes: 15 } }), '2026-03-02T16:45:00Z')).toEqual(busy);
      expect(check(hostTime({ policy: { slotIntervalMinutes: 15 } }), '2026-03-02T16:30:00Z')).toEqual(FREE);
    });

    it('accepts every grid start of a host without a schedule (free around the clock)', () => {
      expect(check(hostTime({ schedule: null }), '2026-03-03T03:00:00Z')).toEqual(FREE);
    });
  });

  describe('buffers against a booking', () => {
    const booking: [string, string] = ['2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z'];

    it('refuses the slot ending where a booking starts when buffer_after would overlap it', () => {
      expect(check(hostTime({ busy: [booking], policy: { bufferAfterMinutes: 15 } }), '2026-03-02T09:30:00Z')).toEqual(busy);
    });

    it('refuses the slot starting where a booking ends when buffer_before would overlap it', () => {
      expect(check(hostTime({ busy: [booking], policy: { bufferBeforeMinutes: 15 } }), '2026-03-02T10:30:00Z')).toEqual(busy);
    });

    it('allows both adjacent slots without buffers', () => {
      expect(check(hostTime({ busy: [booking] }), '2026-03-02T09:30:00Z')).toEqual(FREE);
      expect(check(hostTime({ busy: [booking] }), '2026-03-02T10:30:00Z')).toEqual(FREE);
    });

    it('refuses a slot whose buffer_after reaches a booking that starts after the slot ends', () => {
      // 09:00–09:30 and 15 minutes after it: the booking at 10:00 is clear, one at 09:40 is not.
      const later: [string, string] = ['2026-03-02T09:40:00Z', '2026-03-02T10:10:00Z'];
      expect(check(hostTime({ busy: [later], policy: { bufferAfterMinutes: 15 } }), '2026-03-02T09:00:00Z')).toEqual(busy);
      expect(check(hostTime({ busy: [booking], policy: { bufferAfterMinutes: 15 } }), '2026-03-02T09:00:00Z')).toEqual(FREE);
    });

    it('allows a buffer that ends exactly where the booking starts', () => {
      expect(check(hostTime({ busy: [booking], policy: { bufferAfterMinutes: 30 } }), '2026-03-02T09:00:00Z')).toEqual(FREE);
    });

    it('refuses the booked slot itself', () => {
      expect(check(hostTime({ busy: [booking] }), '2026-03-02T10:00:00Z')).toEqual(busy);
    });
  });

  describe('an explicit end', () => {
    const time = hostTime({ busy: [['2026-03-02T09:40:00Z', '2026-03-02T09:50:00Z']] });

    it('checks the whole span up to the end', () => {
      expect(check(time, '2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z')).toEqual(busy);
      expect(check(time, '2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z')).toEqual(FREE);
    });

    it('still checks the full duration when the end comes sooner', () => {
      expect(check(time, '2026-03-02T09:30:00Z', '2026-03-02T09:35:00Z')).toEqual(busy);
    });

    it('refuses an end past the working interval as slot_busy', () => {
      expect(check(time, '2026-03-02T11:00:00Z', '2026-03-02T12:30:00Z')).toEqual(busy);
    });
  });

  describe('minimum notice edge (60 minutes)', () => {
    it('allows a start exactly at now plus the notice', () => {
      expect(check(hostTime({ policy: { minimumNoticeMinutes: 60 }, now: '2026-03-02T08:00:00Z' }), '2026-03-02T09:00:00Z')).toEqual(FREE);
    });

    it('refuses a start one minute sooner as outside_minimum_notice', () => {
      expect(check(hostTime({ policy: { minimumNoticeMinutes: 60 }, now: '2026-03-02T08:01:00Z' }), '2026-03-02T09:00:00Z')).toEqual({
        available: false,
        reason: 'outside_minimum_notice',
      });
    });
  });

  describe('future limit edge (14 days)', () => {
    it('allows a start exactly at now plus the limit', () => {
      expect(check(hostTime({ policy: { futureLimitDays: 14 }, now: '2026-03-02T09:00:00Z' }), '2026-03-16T09:00:00Z')).toEqual(FREE);
    });

    it('refuses a start one minute later as outside_future_limit', () => {
      expect(check(hostTime({ policy: { futureLimitDays: 14 }, now: '2026-03-02T08:59:00Z' }), '2026-03-16T09:00:00Z')).toEqual({
        available: false,
        reason: 'outside_future_limit',
      });
    });
  });

  it('does not count a start exactly at now as past', () => {
    expect(check(hostTime({ now: '2026-03-02T09:00:00Z' }), '2026-03-02T09:00:00Z')).toEqual(FREE);
  });

  describe('reason precedence: inactive > in_past > outside_minimum_notice > outside_future_limit > slot_busy', () => {
    const now = '2026-03-02T09:00:00Z';
    const busyAll: [string, string][] = [['2026-02-01T00:00:00Z', '2026-05-01T00:00:00Z']];
    it.each([
      ['event_type_inactive over in_past', { status: 'off', minimumNoticeMinutes: 60 }, '2026-03-02T08:00:00Z', 'event_type_inactive'],
      ['in_past over outside_minimum_notice', { minimumNoticeMinutes: 60 }, '2026-03-02T08:59:00Z', 'in_past'],
      [
        'outside_minimum_notice over outside_future_limit',
        { minimumNoticeMinutes: 30 * 24 * 60, futureLimitDays: 14 },
        '2026-03-23T09:00:00Z',
        'outside_minimum_notice',
      ],
      ['outside_minimum_notice over slot_busy', { minimumNoticeMinutes: 60 }, '2026-03-02T09:30:00Z', 'outside_minimum_notice'],
      ['outside_future_limit over slot_busy', { futureLimitDays: 14 }, '2026-03-30T09:10:00Z', 'outside_future_limit'],
      ['slot_busy last', {}, '2026-03-02T13:00:00Z', 'slot_busy'],
    ] as const)('%s', (_, policy, start, reason) => {
      expect(check(hostTime({ policy, now, busy: busyAll }), start)).toEqual({ available: false, reason });
    });
  });
});
