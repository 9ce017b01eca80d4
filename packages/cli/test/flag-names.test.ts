import { describe, expect, it } from 'vitest';
import { type CommandFlags, flagsOfCommand, inFlagTerms } from '../src/output/flag-names.js';

// Issue 11, item 8: errors name the flag the user typed, from one table.

describe('inFlagTerms', () => {
  it('names each field an error is about by its flag, query parameters and body fields alike', () => {
    expect(inFlagTerms('count must be 1 to 42.', { fields: ['count'] })).toBe('--count must be 1 to 42.');
    expect(inFlagTerms('end must be after start.', { param: 'end' })).toBe('--end must be after --start.');
    expect(inFlagTerms('start_date: must be a date.', { param: 'start_date' })).toBe('--from: must be a date.');
    expect(inFlagTerms('host_user_id is not someone this caller may act for.', { fields: ['host_user_id'] })).toBe(
      '--host is not someone this caller may act for.',
    );
    expect(inFlagTerms('Name the event type: event_type_id, or both username and event_slug.', { fields: ['event_type_id'] })).toBe(
      'Name the event type: --event-type, or both --owner and --event-slug.',
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
    expect(inFlagTerms('bogus: unknown.', { param: 'bogus' })).toBe('bogus: unknown.');
  });
});

// Issue 29, item 11: every validation error names the flag, the one of the command that ran.
describe('inFlagTerms, issue 29', () => {
  it('a message about one field that names it nowhere (or only as a word) is led by its flag', () => {
    expect(inFlagTerms('The cursor is not valid for this query.', { param: 'cursor' })).toBe(
      '--cursor: the cursor is not valid for this query.',
    );
    expect(inFlagTerms('Scopes must be some of: series:read.', { fields: ['scopes'] })).toBe(
      '--scope: scopes must be some of: series:read.',
    );
    expect(inFlagTerms('Required questions are unanswered: topic.', { fields: ['topic'] })).toBe(
      'Required questions are unanswered: topic.',
    );
  });

  it('a field spelt as no word is renamed after an article too, and inside a rule; a word after an article is not', () => {
    expect(inFlagTerms('A series created without a location_url cannot gain one.', { fields: ['location_url'] })).toBe(
      'A series created without a --location-url cannot gain one.',
    );
    expect(
      inFlagTerms('event_type_id: name the event type: event_type_id, or both username and event_slug', { fields: ['event_type_id'] }),
    ).toBe('--event-type: name the event type: --event-type, or both username and --event-slug');
    expect(inFlagTerms('busy_calendars: Too small', { fields: ['busy_calendars'] })).toBe('--busy: Too small');
  });

  it('the same clause for two items of one flag is said once', () => {
    expect(
      inFlagTerms('guests.0: must be an email address; guests.1: must be an email address', { fields: ['guests.0', 'guests.1'] }),
    ).toBe('--guest: must be an email address');
  });
});

describe('flagsOfCommand', () => {
  /** A command with these long flags, of which `typed` were given on the command line. */
  function command(flags: string[], typed: string[] = []): CommandFlags {
    const attribute = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    return {
      options: flags.map((long) => ({ long, attributeName: () => attribute(long) })),
      getOptionValueSource: (key) => (typed.some((flag) => attribute(flag) === key) ? 'cli' : undefined),
    };
  }

  it('names the flag the user typed, else the first of the field’s flags the command has', () => {
    expect(flagsOfCommand(command(['--owner', '--username', '--host'], ['--username']))('username')).toBe('--username');
    expect(flagsOfCommand(command(['--owner', '--username', '--host'], ['--host']))('username')).toBe('--host');
    expect(flagsOfCommand(command(['--owner', '--username', '--host']))('username')).toBe('--owner');
    // calendars add: `username` is the account's, sent by --username.
    expect(flagsOfCommand(command(['--url', '--username']))('username')).toBe('--username');
    expect(inFlagTerms('username: Too small', { fields: ['username'] }, flagsOfCommand(command(['--url', '--username'])))).toBe(
      '--username: Too small',
    );
  });

  it('a field no flag of the command sends is named by its first flag; one of no flag stays the API’s', () => {
    expect(flagsOfCommand(command([]))('event_type_id')).toBe('--event-type');
    expect(flagsOfCommand(command([]))('bogus')).toBeUndefined();
  });
});
