import { describe, expect, it } from 'vitest';
import { slotsAsText } from '../src/slot-text.js';

// The text beside list_slots' answer: one line per day in the answer's zone.

const ID = 'a0000000-0000-4000-8000-00000000000a';
const slot = (start: string, minutes = 30) => ({ start, end: new Date(Date.parse(start) + minutes * 60_000).toISOString() });

describe('slotsAsText', () => {
  it('groups UTC starts by day and shows how to book one', () => {
    const text = slotsAsText({
      event_type_id: ID,
      timezone: 'UTC',
      slots: ['2026-03-02T09:00:00.000Z', '2026-03-02T09:30:00.000Z', '2026-03-04T14:00:00.000Z'].map((s) => slot(s)),
    });
    expect(text.split('\n')).toEqual([
      `3 free 30-minute slots for event type ${ID} on 2 day(s), start times in UTC; days not listed have none. Book one with start = date, time and offset, e.g. 2026-03-02T09:00:00Z.`,
      'Mon 2026-03-02 (UTC): 09:00 09:30',
      'Wed 2026-03-04 (UTC): 14:00',
    ]);
  });

  it("groups by the zone's own days: 23:30 UTC is the next morning in Tokyo", () => {
    const text = slotsAsText({ event_type_id: ID, timezone: 'Asia/Tokyo', slots: [slot('2026-03-02T23:30:00.000Z', 60)] });
    expect(text.split('\n')).toEqual([
      `1 free 60-minute slots for event type ${ID} on 1 day(s), start times in Asia/Tokyo; days not listed have none. Book one with start = date, time and offset, e.g. 2026-03-03T08:30:00+09:00.`,
      'Tue 2026-03-03 (+09:00): 08:30',
    ]);
  });

  it('spring-forward day: a start after the change carries its own offset', () => {
    // Europe/Berlin moves from +01:00 to +02:00 at 01:00 UTC on 2026-03-29.
    const text = slotsAsText({
      event_type_id: ID,
      timezone: 'Europe/Berlin',
      slots: [slot('2026-03-29T00:30:00.000Z'), slot('2026-03-29T01:00:00.000Z'), slot('2026-03-30T08:00:00.000Z')],
    });
    expect(text.split('\n').slice(1)).toEqual(['Sun 2026-03-29 (+01:00): 01:30 03:00+02:00', 'Mon 2026-03-30 (+02:00): 10:00']);
  });

  it('says so when there is no free slot', () => {
    expect(slotsAsText({ event_type_id: ID, timezone: 'UTC', slots: [] })).toBe(`No free slots for event type ${ID} in this window.`);
  });

  it('falls back to UTC for a zone the runtime cannot format', () => {
    const text = slotsAsText({ event_type_id: ID, timezone: 'Mars/Olympus', slots: [slot('2026-03-02T09:00:00.000Z')] });
    expect(text.split('\n')[1]).toBe('Mon 2026-03-02 (UTC): 09:00');
  });
});
