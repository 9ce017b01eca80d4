import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interval } from '../src/availability/busy.js';
import { busyOf, checkStart, freeSlots, type HostTime, type SlotPolicy } from '../src/availability/slot-rules.js';
import type { Schedule } from '../src/event-types/schedule.js';

// Issue 12, "One availability truth": for every window W and instant t, t is
// listed for W exactly when t lies in W and a check at t says available; and
// listing two adjacent windows gives what listing their union gives. Over
// generated hosts (touching, overlapping and 24:00-ending hours, overrides,
// no schedule at all, zones with odd offsets and DST gaps and overlaps) and
// event types. Every generated time is a multiple of five minutes, so
// walking each window in five-minute steps visits every possible start.

const FIVE_MINUTES = 5 * 60_000;
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'America/Santiago',
  'Asia/Kathmandu',
  'Europe/London',
] as const;
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** Days around DST changes in many of the zones above, so windows cross them often. */
const ANCHOR_DAYS = ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-06', '2026-10-04', '2026-10-25', '2026-11-01', '2026-01-05'];

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** One written interval: any five-minute start, an end after it up to 24:00. */
const writtenInterval = fc
  .tuple(fc.integer({ min: 0, max: 287 }), fc.integer({ min: 1, max: 288 }))
  .map(([from, length]) => [hhmm(from * 5), hhmm(Math.min(from + length, 288) * 5)] as [string, string]);

const schedule: fc.Arbitrary<Schedule | null> = fc.option(
  fc.record({
    timezone: fc.constantFrom(...ZONES),
    weekly: fc.dictionary(fc.constantFrom(...WEEKDAYS), fc.array(writtenInterval, { maxLength: 3 })),
    overrides: fc.array(fc.record({ date: fc.constantFrom(...ANCHOR_DAYS), intervals: fc.array(writtenInterval, { maxLength: 2 }) }), {
      maxLength: 2,
    }),
  }),
  { freq: 4 },
) as fc.Arbitrary<Schedule | null>;

const policy: fc.Arbitrary<SlotPolicy> = fc.record({
  status: fc.constant('on'),
  durationMinutes: fc.integer({ min: 1, max: 48 }).map((n) => n * 5),
  slotIntervalMinutes: fc.integer({ min: 1, max: 24 }).map((n) => n * 5),
  minimumNoticeMinutes: fc.integer({ min: 0, max: 24 }).map((n) => n * 60),
  futureLimitDays: fc.integer({ min: 1, max: 30 }),
  bufferBeforeMinutes: fc.constantFrom(0, 0, 5, 15),
  bufferAfterMinutes: fc.constantFrom(0, 0, 10),
});

interface World {
  readonly time: HostTime;
  readonly window: Interval;
  /** Where to split the window for the invariance check. */
  readonly cut: number;
}

const world: fc.Arbitrary<World> = fc
  .record({
    schedule,
    zone: fc.constantFrom(...ZONES),
    policy,
    day: fc.constantFrom(...ANCHOR_DAYS),
    // The window: from a five-minute point of the day before the anchor day, up to 36 hours long.
    from: fc.integer({ min: 0, max: 3 * 288 }),
    length: fc.integer({ min: 1, max: 36 * 12 }),
    cutAt: fc.double({ min: 0, max: 1, noNaN: true }),
    busy: fc.array(fc.tuple(fc.integer({ min: 0, max: 4 * 288 }), fc.integer({ min: 1, max: 48 })), { maxLength: 4 }),
    nowBack: fc.integer({ min: 0, max: 3 * 288 }),
  })
  .map(({ schedule, zone, policy, day, from, length, cutAt, busy, nowBack }) => {
    const origin = Date.parse(`${day}T00:00:00Z`) - 288 * FIVE_MINUTES;
    const window = { startMs: origin + from * FIVE_MINUTES, endMs: origin + (from + length) * FIVE_MINUTES };
    const steps = Math.floor(((window.endMs - window.startMs) / FIVE_MINUTES) * cutAt);
    return {
      time: {
        policy,
        schedule,
        zone,
        busy: busyOf(
          busy.map(([at, n]) => ({ startMs: origin + at * FIVE_MINUTES, endMs: origin + (at + n) * FIVE_MINUTES })),
          [],
        ),
        nowMs: window.startMs - nowBack * FIVE_MINUTES,
      },
      window,
      cut: window.startMs + steps * FIVE_MINUTES,
    };
  });

const starts = (slots: readonly Interval[]) => slots.map((s) => s.startMs);

/** The three statements and window invariance; undefined when all hold, else what broke. */
export function truthProblem({ time, window, cut }: World): string | undefined {
  const listed = new Set(starts(freeSlots(time, window)));
  for (let t = window.startMs; t < window.endMs; t += FIVE_MINUTES) {
    const available = checkStart(time, t).available;
    if (available !== listed.has(t)) return `${new Date(t).toISOString()}: listed ${listed.has(t)}, check ${available}`;
  }
  for (const t of listed) if (t < window.startMs || t >= window.endMs) return `${new Date(t).toISOString()} listed outside the window`;
  const joined = [
    ...starts(freeSlots(time, { startMs: window.startMs, endMs: cut })),
    ...starts(freeSlots(time, { startMs: cut, endMs: window.endMs })),
  ];
  if (joined.join() !== [...listed].join()) return `two windows joined at ${new Date(cut).toISOString()} list other slots than their union`;
  return undefined;
}

describe('one availability truth (issue 12)', () => {
  it('list, check and window invariance agree for generated hosts, event types and windows', () => {
    fc.assert(
      fc.property(world, (w) => {
        expect(truthProblem(w)).toBeUndefined();
      }),
      { numRuns: Number(process.env.TRUTH_RUNS ?? 300), seed: Number(process.env.TRUTH_SEED ?? 20261124) },
    );
  });
});
