import { describe, expect, it } from 'vitest';
import type { OwedEntry } from '../src/series/owed.js';
import type { Pattern } from '../src/series/pattern.js';
import { assignTargets, generatedAmong } from '../src/series/replacement-targets.js';

// docs/api/choices.md "Pause, resume, patch: what is owed": each owed entry
// gets exactly one target, its own instant (rule 1) or the next instants
// after everything the series holds (rule 2), in owed order.

/** Every Monday at 10:00 UTC from Monday 2 March 2026. */
const MONDAYS: Pattern = {
  frequency: 'weekly',
  intervalWeeks: 1,
  weekdays: ['mon'],
  time: '10:00',
  timezone: 'UTC',
  startsOn: '2026-03-02',
};

/** 10:00 UTC on a day of March 2026, or of another month given as `MM-DD`. */
const ms = (day: string) => Date.parse(`2026-${day.includes('-') ? day : `03-${day}`}T10:00:00Z`);
const entry = (id: string, day: string): OwedEntry => ({ id, patternInstantMs: ms(day), heldBookingUid: `held-${id}` });
/** Each entry's id and its target's civil date. */
const targets = (owed: OwedEntry[], held: string[], nowMs: number) =>
  assignTargets(
    MONDAYS,
    owed,
    held.map((day) => ms(day)),
    nowMs,
  ).map(({ entry, target }) => [entry.id, target.date, target.instantMs === Date.parse(`${target.date}T10:00:00Z`)]);

/** Monday 2 March 2026, 08:00 UTC: every Monday of the pattern is still ahead. */
const BEFORE_ALL = Date.parse('2026-03-02T08:00:00Z');

describe('assignTargets', () => {
  it('owes nothing: no targets', () => {
    expect(assignTargets(MONDAYS, [], [ms('09')], BEFORE_ALL)).toEqual([]);
  });

  it('rule 1: each entry back at its own instant while it is ahead, generated and held by no live occurrence', () => {
    expect(targets([entry('a', '09'), entry('b', '16')], ['02', '23'], BEFORE_ALL)).toEqual([
      ['a', '2026-03-09', true],
      ['b', '2026-03-16', true],
    ]);
  });

  it('an own instant that is now has come: rule 2, after the latest instant held or given by rule 1', () => {
    expect(targets([entry('a', '02'), entry('b', '09')], ['16'], ms('02'))).toEqual([
      ['a', '2026-03-23', true],
      ['b', '2026-03-09', true],
    ]);
  });

  it('an own instant a live occurrence holds: rule 2', () => {
    expect(targets([entry('a', '09')], ['09', '16'], BEFORE_ALL)).toEqual([['a', '2026-03-23', true]]);
  });

  it('two entries owed the same instant: the first takes it, the second goes after it', () => {
    expect(targets([entry('a', '09'), entry('b', '09')], [], BEFORE_ALL)).toEqual([
      ['a', '2026-03-09', true],
      ['b', '2026-03-16', true],
    ]);
  });

  it('an own instant the pattern no longer generates (a Tuesday): rule 2, from now on', () => {
    expect(targets([entry('a', '10')], [], BEFORE_ALL)).toEqual([['a', '2026-03-02', true]]);
  });

  it('rule 2 hands out the next instants in owed order, after now and after the latest held, whatever order held lists them in', () => {
    expect(targets([entry('a', '02'), entry('b', '09')], ['23', '16'], ms('20'))).toEqual([
      ['a', '2026-03-30', true],
      ['b', '2026-04-06', true],
    ]);
  });
});

describe('generatedAmong', () => {
  it('finds the instants the pattern generates among those given, the last one too, with their dates', () => {
    const found = generatedAmong(MONDAYS, [ms('16'), ms('10'), ms('09'), ms('30')]);
    expect([...found.entries()].map(([instant, at]) => [instant, at.date])).toEqual([
      [ms('09'), '2026-03-09'],
      [ms('16'), '2026-03-16'],
      [ms('30'), '2026-03-30'],
    ]);
  });

  it('of no instants finds none', () => {
    expect(generatedAmong(MONDAYS, []).size).toBe(0);
  });
});
