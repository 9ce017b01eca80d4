import { describe, expect, it } from 'vitest';
import { durationBefore } from '../src/notifications/invite-ics.js';
import { alarmMinutes, DEFAULT_REMINDERS, reminderRulesSchema, remindersDue, reminderVerdict } from '../src/reminders/reminder-rules.js';

// Issue 37 (in progress): the instants a booking's reminders fall due.

const START = Date.parse('2026-03-10T14:00:00Z');
const END = Date.parse('2026-03-10T14:30:00Z');
const H = 3_600_000;

describe('reminders due', () => {
  it('owes the defaults a day and an hour before the start, to the attendee by mail, in time order', () => {
    expect(remindersDue(DEFAULT_REMINDERS, { startMs: START, endMs: END }, START - 48 * H)).toEqual([
      { rule: 0, recipient: 'attendee', via: 'email', dueMs: START - 24 * H, text: null },
      { rule: 1, recipient: 'attendee', via: 'email', dueMs: START - H, text: null },
    ]);
  });

  it('owes nothing whose moment has passed or is now, and only the later one to a booking made 30 hours ahead', () => {
    expect(remindersDue(DEFAULT_REMINDERS, { startMs: START, endMs: END }, START - 30 * H).map((r) => r.rule)).toEqual([0, 1]);
    expect(remindersDue(DEFAULT_REMINDERS, { startMs: START, endMs: END }, START - 24 * H).map((r) => r.rule)).toEqual([1]);
    expect(remindersDue(DEFAULT_REMINDERS, { startMs: START, endMs: END }, START - H)).toEqual([]);
  });

  it('sends a follow-up after the end, to both when asked, and never to a silenced attendee', () => {
    const rules = reminderRulesSchema.parse([{ minutes: 30, relative_to: 'end', to: 'both', via: 'webhook', text: 'How did it go?' }]);
    expect(remindersDue(rules, { startMs: START, endMs: END }, START)).toEqual([
      { rule: 0, recipient: 'attendee', via: 'webhook', dueMs: END + 30 * 60_000, text: 'How did it go?' },
      { rule: 0, recipient: 'host', via: 'webhook', dueMs: END + 30 * 60_000, text: 'How did it go?' },
    ]);
    expect(remindersDue(rules, { startMs: START, endMs: END }, START, new Set(['attendee'])).map((r) => r.recipient)).toEqual(['host']);
  });

  it('refuses more than five rules, an offset past 30 days and a negative one', () => {
    const rule = { minutes: 10 };
    expect(reminderRulesSchema.safeParse(Array(6).fill(rule)).success).toBe(false);
    expect(reminderRulesSchema.safeParse([{ minutes: 30 * 24 * 60 + 1 }]).success).toBe(false);
    expect(reminderRulesSchema.safeParse([{ minutes: -1 }]).success).toBe(false);
    expect(reminderRulesSchema.parse([rule])).toEqual([{ minutes: 10, relative_to: 'start', to: 'attendee', via: 'email', text: null }]);
  });
});

describe('reminder lateness', () => {
  const before = { dueMs: START - H, relativeTo: 'start' as const, startMs: START };
  it('sends at its moment and up to 15 minutes late, never later, and never once the meeting started', () => {
    expect(reminderVerdict(before, START - H)).toBe('send');
    expect(reminderVerdict(before, START - H + 15 * 60_000)).toBe('send');
    expect(reminderVerdict(before, START - H + 15 * 60_000 + 1)).toBe('too_late');
    const tenBefore = { dueMs: START - 10 * 60_000, relativeTo: 'start' as const, startMs: START };
    expect(reminderVerdict(tenBefore, START - 1)).toBe('send');
    expect(reminderVerdict(tenBefore, START)).toBe('too_late');
    // A follow-up after the end is not bound to the start.
    expect(reminderVerdict({ dueMs: END + H, relativeTo: 'end', startMs: START }, END + H + 60_000)).toBe('send');
  });
});

describe('alarms in an invite', () => {
  it('alarms for each mail rule before the start that reaches the recipient, each offset once, longest first', () => {
    const rules = reminderRulesSchema.parse([
      { minutes: 90, to: 'both' },
      { minutes: 24 * 60 },
      { minutes: 0, to: 'host' },
      { minutes: 90, to: 'host', text: 'again' },
      { minutes: 30, relative_to: 'end' },
    ]);
    expect(alarmMinutes(rules, 'attendee')).toEqual([1440, 90]);
    expect(alarmMinutes(rules, 'host')).toEqual([90, 0]);
    expect(alarmMinutes(reminderRulesSchema.parse([{ minutes: 10, via: 'webhook' }]), 'attendee')).toEqual([]);
    expect(alarmMinutes(DEFAULT_REMINDERS, 'attendee')).toEqual([1440, 60]);
  });

  it('writes each as a DISPLAY alarm with a negative duration before the start', () => {
    expect([0, 1, 59, 60, 90, 1440, 1500, 2 * 1440, 2 * 1440 + 61, 43200].map(durationBefore)).toEqual([
      '-PT0M',
      '-PT1M',
      '-PT59M',
      '-PT1H',
      '-PT1H30M',
      '-P1D',
      '-P1DT1H',
      '-P2D',
      '-P2DT1H1M',
      '-P30D',
    ]);
  });
});
