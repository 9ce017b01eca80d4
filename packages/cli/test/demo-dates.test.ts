import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseWorkspace } from '@schedule/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoForToday, demoWeeksAhead, moveDemoDates } from '../src/demo-dates.js';

// Issue 29 item 1: the demo worked only until 2026-12-08, its dates being
// fixed. Loaded with --demo, its dates move by whole weeks to the current week.

const DEMO_TEXT = readFileSync(resolve(import.meta.dirname, '../../../demo/workspace.json'), 'utf8');
const demo = parseWorkspace(DEMO_TEXT);
const at = (iso: string) => Date.parse(iso);

describe('demoWeeksAhead', () => {
  it('is 0 on every day of the week the demo was written for, Monday 00:00 to Sunday 23:59 UTC', () => {
    expect(demoWeeksAhead('2026-11-23', at('2026-11-23T00:00:00Z'))).toBe(0);
    expect(demoWeeksAhead('2026-11-23', at('2026-11-29T23:59:59.999Z'))).toBe(0);
  });

  it('counts whole weeks forward and back, the Monday starting the next', () => {
    expect(demoWeeksAhead('2026-11-23', at('2026-11-30T00:00:00Z'))).toBe(1);
    expect(demoWeeksAhead('2026-11-23', at('2027-11-27T12:00:00Z'))).toBe(52);
    expect(demoWeeksAhead('2026-11-23', at('2026-11-22T23:59:59Z'))).toBe(-1);
  });
});

describe('moveDemoDates', () => {
  it('moves every date of the demo file by whole weeks, and nothing else', () => {
    const moved = moveDemoDates(demo, 2);
    const twoWeeks = 14 * 86_400_000;
    const original = demo.bookings.map((b) => at(b.start));
    expect(moved.bookings.map((b) => at(b.start))).toEqual(original.map((ms) => ms + twoWeeks));
    expect(moved.users[0]!.schedule!.overrides).toEqual([{ date: '2027-01-07', intervals: [] }]);
    const busy = moved.users[0]!.calendars[0];
    expect(busy).toEqual({
      kind: 'static',
      writable: true,
      busy: [{ start: '2026-12-15T10:00:00.000Z', end: '2026-12-15T11:00:00.000Z' }],
    });
    // Answers and metadata are the attendee's words.
    expect(moved.bookings.map((b) => [b.uid, b.metadata, b.responses])).toEqual(demo.bookings.map((b) => [b.uid, b.metadata, b.responses]));
    expect({ ...moved, users: [], bookings: [] }).toEqual({ ...demo, users: [], bookings: [] });
  });

  it('keeps each date on its weekday and time of day, for any number of weeks', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2000, max: 2000 }), (weeks) => {
        const moved = moveDemoDates(demo, weeks);
        moved.bookings.forEach((b, i) => {
          const before = new Date(demo.bookings[i]!.start);
          const after = new Date(b.start);
          expect([after.getUTCDay(), after.getUTCHours(), after.getUTCMinutes()]).toEqual([
            before.getUTCDay(),
            before.getUTCHours(),
            before.getUTCMinutes(),
          ]);
        });
      }),
    );
  });

  it('moves cancellation times and token expiries too', () => {
    const workspace = parseWorkspace(
      JSON.stringify({
        users: [{ username: 'ann', email: 'ann@example.com' }],
        event_types: [{ owner: 'ann', slug: 'intro', name: 'Intro', duration_minutes: 30 }],
        tokens: [{ name: 't', user: 'ann', secret: 'secret-0123456789', scopes: [], expires_at: '2026-11-30T00:00:00+01:00' }],
        bookings: [
          {
            event_type: 'intro',
            start: '2026-11-24T09:00:00Z',
            attendee: { email: 'kim@example.com' },
            status: 'canceled',
            cancelled_at: '2026-11-23T08:00:00Z',
          },
        ],
      }),
    );
    const moved = moveDemoDates(workspace, 1);
    expect(moved.tokens[0]!.expires_at).toBe('2026-12-06T23:00:00.000Z');
    expect(moved.bookings[0]).toMatchObject({ start: '2026-12-01T09:00:00.000Z', cancelled_at: '2026-11-30T08:00:00.000Z' });
  });
});

describe('demoForToday', () => {
  it("moves demo/workspace.json's upcoming bookings into the days after today, whatever the day", () => {
    // Every day of two years, the week's first and last minute included.
    for (let day = 0; day < 730; day++) {
      for (const minute of [0, 24 * 60 - 1]) {
        const now = at('2026-11-23T00:00:00Z') + day * 86_400_000 + minute * 60_000;
        const today = demoForToday(demo, now);
        const upcoming = today.bookings.filter((b) => b.status === 'confirmed' && at(b.start) > now);
        const past = today.bookings.filter((b) => at(b.start) < now);
        expect(upcoming.length, new Date(now).toISOString()).toBe(4);
        expect(past.length).toBe(2);
        // Never further out than the intro call's 60-day limit, so the tour can book next to them.
        expect(Math.max(...upcoming.map((b) => at(b.start))) - now).toBeLessThan(60 * 86_400_000);
      }
    }
  });

  it('leaves a workspace with "demo": true, or none, as written', () => {
    const plain = parseWorkspace(DEMO_TEXT.replace(/"demo": \{[^}]*\}/, '"demo": true'));
    expect(plain.demo).toBe(true);
    expect(demoForToday(plain, at('2030-01-01T00:00:00Z'))).toBe(plain);
  });

  it('refuses a week_of that is not a Monday, naming the field', () => {
    expect(() => parseWorkspace(DEMO_TEXT.replace('"week_of": "2026-11-23"', '"week_of": "2026-11-24"'))).toThrow(
      /demo\.week_of: must be a Monday/,
    );
  });
});
