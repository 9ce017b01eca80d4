import { wallClockToInstant } from '@schedule/core';
import { describe, expect, it } from 'vitest';
import { isDateOnly, timeToSend, typedTimeProblem, withZoneOffset } from '../src/input/typed-time.js';

// docs/api/overview.md "Instants, dates and zones": a time typed without an offset is read
// in --tz and sent with its offset, by core's wall-clock rules. 2026's EU
// clock changes: 29 March (02:00 → 03:00) and 25 October (03:00 → 02:00).

const send = (text: string, zone: string) => timeToSend(text, zone, wallClockToInstant);

describe('timeToSend', () => {
  it('a zone-less time is sent with the offset in force then', () => {
    expect(send('2026-12-09T11:00', 'Europe/Berlin')).toBe('2026-12-09T11:00:00+01:00');
    expect(send('2026-07-09T11:00', 'Europe/Berlin')).toBe('2026-07-09T11:00:00+02:00');
    expect(send('2026-12-09T11:00', 'UTC')).toBe('2026-12-09T11:00:00+00:00');
    expect(send('2026-12-09T11:00', 'Asia/Kolkata')).toBe('2026-12-09T11:00:00+05:30');
    expect(send('2026-12-09T11:00', 'America/St_Johns')).toBe('2026-12-09T11:00:00-03:30');
  });

  it('seconds and milliseconds are kept; a space may stand for the T', () => {
    expect(send('2026-12-09T11:00:30', 'Europe/Berlin')).toBe('2026-12-09T11:00:30+01:00');
    expect(send('2026-12-09T11:00:30.25', 'Europe/Berlin')).toBe('2026-12-09T11:00:30.250+01:00');
    expect(send('2026-12-09 11:00', 'Europe/Berlin')).toBe('2026-12-09T11:00:00+01:00');
  });

  it('spring-forward gap moves forward', () => {
    expect(send('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T03:30:00+02:00');
    expect(Date.parse(send('2026-03-29T02:30', 'Europe/Berlin'))).toBe(Date.parse('2026-03-29T01:30:00Z'));
  });

  it('fall-back takes the first instant', () => {
    expect(send('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T02:30:00+02:00');
    expect(send('2026-10-25T03:30', 'Europe/Berlin')).toBe('2026-10-25T03:30:00+01:00');
  });

  it('a time with Z or an offset, a bare date, and anything else are sent as typed', () => {
    for (const text of ['2026-12-09T11:00Z', '2026-12-09T11:00:00+05:00', '2026-12-09T11:00-0500', '2026-12-09', 'tomorrow', '']) {
      expect(send(text, 'Europe/Berlin')).toBe(text);
    }
  });

  it('a date or time no calendar has is left for the API to refuse', () => {
    for (const text of ['2026-02-30T10:00', '2026-12-09T24:10', '2026-12-09T11:60', '2026-12-09T11:00:61']) {
      expect(send(text, 'Europe/Berlin')).toBe(text);
    }
  });
});

describe('withZoneOffset and isDateOnly', () => {
  it('an instant as the zone shows it, with its offset', () => {
    expect(withZoneOffset(Date.parse('2026-12-09T10:00:00Z'), 'Asia/Tokyo')).toBe('2026-12-09T19:00:00+09:00');
  });

  it('only YYYY-MM-DD is a bare date', () => {
    expect(isDateOnly('2026-12-09')).toBe(true);
    expect(isDateOnly('2026-12-09T00:00')).toBe(false);
  });
});

// Issue 29, item 13: what the CLI cannot read is refused in its words; the API's "must name its offset" never reaches a CLI user.
describe('typedTimeProblem', () => {
  const problem = (text: string, kind: 'instant' | 'instant-or-date') =>
    typedTimeProblem('--start', text, send(text, 'Europe/Berlin'), kind);

  it('a time read in the zone, or one with its offset, is fine; a date that exists is fine where dates are taken', () => {
    for (const text of [
      '2026-12-09T11:00',
      '2026-12-09 11:00',
      '2026-12-09T11:00Z',
      '2026-12-09T11:00:00-05:00',
      '2026-12-09T11:00+0530',
    ]) {
      expect(problem(text, 'instant')).toBeUndefined();
    }
    expect(problem('2026-12-09', 'instant-or-date')).toBeUndefined();
  });

  it('a date where a time is needed: give the time too, with this date in the examples', () => {
    expect(problem('2026-12-09', 'instant')).toBe(
      '--start 2026-12-09 is a date; give a time too, such as 2026-12-09T09:00 (read in --tz) or 2026-12-09T09:00:00Z.',
    );
  });

  it('words, and days no calendar has (typed with or without an offset), are not times', () => {
    for (const text of ['tomorrow', '', '2026-02-30T10:00', '2026-02-30T10:00Z', '2026-12-09T24:10', '2026-02-30']) {
      expect(problem(text, 'instant')).toMatch(/^--start .* is not a time; give one such as 2027-01-31T18:00 \(read in --tz\)/);
      expect(problem(text, 'instant-or-date')).toMatch(/^--start .* is not a date or a time; give one such as 2027-01-31, /);
    }
  });
});
