import { describe, expect, it } from 'vitest';
import { inFlagTerms } from '../src/output/flag-names.js';

// Issue 11, item 8: errors name the flag the user typed, from one table.

describe('inFlagTerms', () => {
  it('names each field an error is about by its flag, query parameters and body fields alike', () => {
    expect(inFlagTerms('count must be 1 to 42.', { fields: ['count'] })).toBe('--count must be 1 to 42.');
    expect(inFlagTerms('end must be after start.', { param: 'end' })).toBe('--end must be after --start.');
    expect(inFlagTerms('Query parameter start_date: must be a date.', { param: 'start_date' })).toBe('--from: must be a date.');
    expect(inFlagTerms('host_user_id is not someone this caller may act for.', { fields: ['host_user_id'] })).toBe(
      '--host is not someone this caller may act for.',
    );
    expect(inFlagTerms('Name the event type: event_type_id, or both username and event_slug.', { fields: ['event_type_id'] })).toBe(
      'Name the event type: --event-type, or both --username and --event-slug.',
    );
  });

  it('a nested field is named by its top flag, and the longest name wins', () => {
    expect(inFlagTerms('guests.1.email: must be an email address', { fields: ['guests.1.email'] })).toBe(
      '--guest: must be an email address',
    );
    expect(inFlagTerms('attendee.timezone: must be an IANA time zone name', { fields: ['attendee.timezone'] })).toBe(
      '--attendee-timezone: must be an IANA time zone name',
    );
  });

  it('in a `field: rule` clause only the field is reworded: the rule is plain words', () => {
    expect(inFlagTerms('timezone: must be an IANA time zone name', { fields: ['timezone'] })).toBe(
      '--timezone: must be an IANA time zone name',
    );
    expect(inFlagTerms('start: must be a date-time; end: must be after the start time', { fields: ['start', 'end'] })).toBe(
      '--start: must be a date-time; --end: must be after the start time',
    );
    expect(inFlagTerms('Send at least one of frequency, weekdays, time.', { fields: [] })).toBe(
      'Send at least one of --frequency, --weekdays, --time.',
    );
  });

  it('a message about no field, and names the table does not hold, stay as they are', () => {
    expect(inFlagTerms('The host is not free at this time.', { reason: 'slot_busy' })).toBe('The host is not free at this time.');
    expect(inFlagTerms('Required questions are unanswered: topic.', { fields: ['topic'] })).toBe(
      'Required questions are unanswered: topic.',
    );
    expect(inFlagTerms('Query parameter bogus: unknown.', { param: 'bogus' })).toBe('Query parameter bogus: unknown.');
    expect(inFlagTerms('The cursor is not valid for this query.', { param: 'cursor' })).toBe('The cursor is not valid for this query.');
  });
});
