import { describe, expect, it } from 'vitest';
import { closestName, didYouMean } from '../src/validation/closest-name.js';

// The name meant, for a name nothing takes (issue 11: MCP arguments; issue 29: body fields).

const LIST = ['limit', 'cursor', 'sort', 'host_user_id', 'attendee_email', 'status', 'start_date', 'include_cancelled', 'updated_since'];
const ATTENDEE = ['email', 'name', 'first_name', 'last_name', 'phone', 'timezone', 'sms_opt_in'];
const CREATE = ['event_type_id', 'event_slug', 'start', 'timezone', 'metadata', 'idempotency_key'];

describe('closestName', () => {
  it.each([
    ['statuses', LIST, 'status'],
    ['hostUserId', LIST, 'host_user_id'],
    ['host_id', LIST, 'host_user_id'],
    ['host', LIST, 'host_user_id'],
    ['email', LIST, 'attendee_email'],
    ['start', LIST, 'start_date'],
    ['limt', LIST, 'limit'],
    ['include_canceled', LIST, 'include_cancelled'],
    ['since', LIST, 'updated_since'],
    ['nmae', ATTENDEE, 'name'],
    ['Name', ATTENDEE, 'name'],
    ['firstname', ATTENDEE, 'first_name'],
    ['phon', ATTENDEE, 'phone'],
    ['start_time', CREATE, 'start'],
    ['meta', CREATE, 'metadata'],
    ['key', CREATE, 'idempotency_key'],
    ['time_zone', CREATE, 'timezone'],
    ['slug', CREATE, 'event_slug'],
    ['ab', ['ac', 'xyz'], 'ac'],
  ])('%s among its neighbours suggests %s', (unknown, known, meant) => {
    expect(closestName(unknown, known)).toBe(meant);
  });

  it.each([['id'], ['order'], ['notes'], ['xyz'], ['colour']])('suggests nothing for %s, which is close to no name', (unknown) => {
    expect(closestName(unknown, LIST)).toBeUndefined();
  });

  it('a short name is close only within one letter, a longer one within two', () => {
    expect(closestName('ab', ['abcd'])).toBeUndefined();
    expect(closestName('abc', ['abd'])).toBe('abd');
    expect(closestName('abc', ['ade'])).toBeUndefined();
    expect(closestName('abcde', ['abxye'])).toBe('abxye');
    expect(closestName('abcde', ['axyze'])).toBeUndefined();
  });

  it('reads the words of a camelCase name, and takes a name related by all of its words or all of the other’s, not by some', () => {
    expect(closestName('userId', ['host_user_id', 'limit'])).toBe('host_user_id');
    expect(closestName('first_time', ['time'])).toBe('time');
    expect(closestName('host_name', ['host_user_id'])).toBeUndefined();
  });

  it('keeps the first of two names equally close', () => {
    expect(closestName('abcd', ['abce', 'abcf'])).toBe('abce');
  });

  it('prefers a one-letter slip to a related word, and a related word to a two-letter slip', () => {
    expect(closestName('nme', ['name', 'first_name'])).toBe('name');
    expect(closestName('host', ['hosts', 'host_user_id'])).toBe('hosts');
    expect(closestName('status_list', ['status', 'statux_list'])).toBe('statux_list');
    expect(closestName('status_list', ['status', 'statix_list'])).toBe('status');
  });
});

describe('didYouMean', () => {
  it('says the name meant for each unknown name that has one, in order, with the path of their object', () => {
    expect(didYouMean(['nmae', 'colour', 'phon'], ATTENDEE, 'attendee.')).toBe(
      ' Did you mean attendee.name (not attendee.nmae)? Did you mean attendee.phone (not attendee.phon)?',
    );
    expect(didYouMean(['limt'], LIST)).toBe(' Did you mean limit (not limt)?');
    expect(didYouMean(['colour'], LIST)).toBe('');
  });

  it('never suggests a name for itself (a known key refused for its value)', () => {
    expect(didYouMean(['location_url'], ['location_url'])).toBe('');
  });
});
