import { type PublicEventType, type Question, ScheduleError } from '@schedule/core';
import { describe, expect, it } from 'vitest';
import { bookingBody, fieldErrors, formValues, guestsOf, seriesBody } from '../src/booking-body.js';
import { de } from '../src/messages/de.js';
import { en } from '../src/messages/en.js';
import type { FormFields } from '../src/read-form.js';
import type { FormValues } from '../src/views/booking-form.js';

// booking-body.ts: the form a browser posts, reshaped into the bodies of POST /v1/bookings and /v1/series,
// and the operation's refusals put back beside the fields they name.

const QUESTIONS: Question[] = [
  { id: 'topic', label: 'Topic', type: 'text', required: false },
  { id: 'notes', label: 'Notes', type: 'long_text', required: false },
  { id: 'size', label: 'Size', type: 'number', required: false },
  { id: 'agree', label: 'Agree', type: 'boolean', required: true },
  { id: 'news', label: 'News', type: 'boolean', required: false },
  { id: 'tier', label: 'Tier', type: 'select', required: false, options: ['a', 'b'] },
  { id: 'tools', label: 'Tools', type: 'multi_select', required: false, options: ['x', 'y', 'z'] },
];

const TYPE: PublicEventType = {
  id: '60000000-0000-4000-8000-000000000001',
  slug: 'intro',
  name: 'Intro',
  description: null,
  durationMinutes: 30,
  bookable: true,
  recurring: true,
  allowReschedule: true,
  locationType: 'conference',
  questions: QUESTIONS,
  host: { username: 'alice', name: 'Alice', timezone: 'Europe/Berlin' },
};

const form = (entries: [string, string][]): FormFields => {
  const fields = new Map<string, string[]>();
  for (const [name, value] of entries) fields.set(name, [...(fields.get(name) ?? []), value]);
  return fields;
};

const values = (changes: Partial<FormValues> = {}): FormValues => ({
  name: ' Bob ',
  email: ' bob@example.com ',
  guests: '',
  holdId: '',
  answers: new Map(),
  repeat: 'none',
  count: '4',
  ...changes,
});

const START = '2026-03-03T09:00:00.000Z';

describe('formValues', () => {
  it('reads each field as typed, every value of a question, and a repeat of ours', () => {
    const read = formValues(
      form([
        ['name', 'Bob'],
        ['email', 'bob@example.com'],
        ['guests', 'a@x.test\nb@x.test'],
        ['q.tools', 'x'],
        ['q.tools', 'z'],
        ['q.topic', 'Hello'],
        ['q.unknown', 'ignored'],
        ['repeat', 'weekly'],
        ['count', '6'],
        ['hold_id', '5b0c2e4e-8f3a-4c1d-9a2b-7e6f5d4c3b2a'],
      ]),
      TYPE,
    );
    expect(read).toEqual({
      name: 'Bob',
      email: 'bob@example.com',
      guests: 'a@x.test\nb@x.test',
      answers: new Map(QUESTIONS.map((q) => [q.id, q.id === 'tools' ? ['x', 'z'] : q.id === 'topic' ? ['Hello'] : []])),
      repeat: 'weekly',
      count: '6',
      holdId: '5b0c2e4e-8f3a-4c1d-9a2b-7e6f5d4c3b2a',
    });
  });

  it('is empty where nothing was posted: no repeat, four times', () => {
    expect(formValues(form([]), TYPE)).toEqual({
      name: '',
      email: '',
      guests: '',
      answers: new Map(QUESTIONS.map((q) => [q.id, []])),
      repeat: 'none',
      count: '4',
      holdId: '',
    });
    expect(formValues(form([['repeat', 'monthly']]), TYPE).repeat).toBe('monthly');
    expect(formValues(form([['repeat', 'daily']]), TYPE).repeat).toBe('none');
  });
});

describe('bookingBody', () => {
  const answered = (answers: Record<string, string[]>) =>
    bookingBody(TYPE, values({ answers: new Map(Object.entries(answers)) }), START, 'Asia/Tokyo');

  it('names the type by host and slug, the attendee trimmed in the zone they chose, and where it was booked from', () => {
    expect(bookingBody(TYPE, values({ guests: 'g@x.test' }), START, 'Asia/Tokyo')).toEqual({
      username: 'alice',
      event_slug: 'intro',
      start: START,
      attendee: { name: 'Bob', email: 'bob@example.com', timezone: 'Asia/Tokyo' },
      timezone: 'Asia/Tokyo',
      guests: ['g@x.test'],
      // An unticked optional box is no; the required one is left unanswered for the operation to refuse.
      responses: { news: false },
      metadata: { booked_from: 'booking_page' },
    });
  });

  it('sends the form’s hold only when it is a UUID, so a mangled one books as no hold rather than failing the form', () => {
    const withHold = (holdId: string) => bookingBody(TYPE, values({ holdId }), START, 'Asia/Tokyo').hold_id;
    expect(withHold('5B0C2E4E-8F3A-4C1D-9A2B-7E6F5D4C3B2A')).toBe('5B0C2E4E-8F3A-4C1D-9A2B-7E6F5D4C3B2A');
    expect(withHold('')).toBeUndefined();
    expect(withHold('not-a-uuid')).toBeUndefined();
    expect(withHold('5b0c2e4e-8f3a-4c1d-9a2b-7e6f5d4c3b2a-x')).toBeUndefined();
  });

  it('sends each answer as its question takes it', () => {
    expect(
      answered({
        topic: ['Hi'],
        notes: ['line 1\nline 2'],
        size: [' 2,5 '],
        agree: ['true'],
        news: ['true'],
        tier: ['b'],
        tools: ['x', 'y'],
      }).responses,
    ).toEqual({ topic: 'Hi', notes: 'line 1\nline 2', size: 2.5, agree: true, news: true, tier: 'b', tools: ['x', 'y'] });
  });

  it('leaves out what was not answered, and sends a number that is none as typed for the operation to refuse', () => {
    expect(answered({ topic: [''], size: ['  '], tier: [''], tools: [], agree: ['false'] }).responses).toEqual({ news: false });
    expect(answered({ size: ['many'] }).responses).toEqual({ size: 'many', news: false });
    expect(answered({ size: ['Infinity'] }).responses).toEqual({ size: 'Infinity', news: false });
    expect(answered({ size: ['0'] }).responses).toEqual({ size: 0, news: false });
    expect(answered({ size: ['-3'] }).responses).toEqual({ size: -3, news: false });
  });

  it('a type without questions sends no responses at all', () => {
    const plain = bookingBody({ ...TYPE, questions: [] }, values(), START, 'UTC');
    expect(plain).not.toHaveProperty('responses');
    expect(plain.guests).toEqual([]);
  });
});

describe('guestsOf', () => {
  it('splits one per line, or by commas or semicolons, trimmed, blanks left out', () => {
    expect(guestsOf('a@x.test\r\nb@x.test\n\n c@x.test ,d@x.test;e@x.test;')).toEqual([
      'a@x.test',
      'b@x.test',
      'c@x.test',
      'd@x.test',
      'e@x.test',
    ]);
    expect(guestsOf('')).toEqual([]);
    expect(guestsOf(' \n , ; ')).toEqual([]);
    // Not judged here: the operation refuses what is no email.
    expect(guestsOf('not an email')).toEqual(['not an email']);
  });
});

describe('seriesBody', () => {
  it("a weekly series on the start's weekday and time in the visitor's zone, from its local date", () => {
    // 23:30 UTC on Tuesday 3 March is 08:30 on Wednesday 4 March in Tokyo.
    expect(seriesBody(TYPE, values({ repeat: 'weekly', count: '6' }), '2026-03-03T23:30:00.000Z', 'Asia/Tokyo')).toEqual({
      host_username: 'alice',
      username: 'alice',
      event_slug: 'intro',
      attendee: { name: 'Bob', email: 'bob@example.com' },
      timezone: 'Asia/Tokyo',
      frequency: 'weekly',
      weekdays: ['wed'],
      time: '08:30',
      starts_on: '2026-03-04',
      count: 6,
    });
  });

  it('a monthly series on the same day of the month, without weekdays', () => {
    const body = seriesBody(TYPE, values({ repeat: 'monthly', count: '3' }), '2026-03-31T07:00:00.000Z', 'America/New_York');
    expect(body).toMatchObject({ frequency: 'monthly_same_day', time: '03:00', starts_on: '2026-03-31', count: 3 });
    expect(body).not.toHaveProperty('weekdays');
  });

  it('reads the time across a change of clocks by the offset on that day', () => {
    // 29 March in Berlin: 01:30 UTC is 03:30 CEST; the day before, 01:30 UTC was 02:30 CET.
    expect(seriesBody(TYPE, values({ repeat: 'weekly' }), '2026-03-29T01:30:00.000Z', 'Europe/Berlin')).toMatchObject({
      weekdays: ['sun'],
      time: '03:30',
      starts_on: '2026-03-29',
    });
    expect(seriesBody(TYPE, values({ repeat: 'weekly' }), '2026-03-28T01:30:00.000Z', 'Europe/Berlin')).toMatchObject({
      weekdays: ['sat'],
      time: '02:30',
    });
  });

  it('sends a count that is not a whole number as typed, for the operation to refuse', () => {
    expect(seriesBody(TYPE, values({ repeat: 'weekly', count: 'lots' }), START, 'UTC').count).toBe('lots');
    expect(seriesBody(TYPE, values({ repeat: 'weekly', count: '2.5' }), START, 'UTC').count).toBe('2.5');
  });
});

describe('fieldErrors', () => {
  const refusal = (message: string, fields?: unknown) =>
    new ScheduleError('validation_error', message, fields === undefined ? {} : { fields });

  it("puts each of the operation's clauses beside the field of the form it names", () => {
    const error = refusal(
      'attendee.email: must be an email; responses.topic: is required; guests.1: must be an email; count: must be 1 to 42',
      ['attendee.email', 'responses.topic', 'guests.1', 'count'],
    );
    expect(fieldErrors(error, en)).toEqual(
      new Map([
        ['email', 'must be an email'],
        ['q.topic', 'is required'],
        ['guests', 'must be an email'],
        ['count', 'must be 1 to 42'],
      ]),
    );
  });

  it('names the name field apart from the email, an attendee field the form has none for on the form, and a nested answer by its question', () => {
    const error = refusal('attendee.name: is required; attendee.timezone: unknown zone; responses.tools.0: not an option', [
      'attendee.name',
      'attendee.timezone',
      'responses.tools.0',
    ]);
    expect(fieldErrors(error, en)).toEqual(
      new Map([
        ['name', 'is required'],
        ['form', 'unknown zone'],
        ['q.tools', 'not an option'],
      ]),
    );
  });

  it("keeps the first clause for a field named twice, and the page's words where the operation wrote none for it", () => {
    const error = refusal('guests.0: must be an email; guests.1: too long', ['guests.0', 'guests.1', 'attendee.email']);
    expect(fieldErrors(error, en)).toEqual(
      new Map([
        ['guests', 'must be an email'],
        ['email', en.fieldInvalid],
      ]),
    );
    expect(fieldErrors(refusal('Something.', ['attendee.email']), de)).toEqual(new Map([['email', de.fieldInvalid]]));
  });

  it('a field the form does not have, or no field at all, is the whole message at the top of the form', () => {
    expect(fieldErrors(refusal('start: is not free', ['start']), en)).toEqual(new Map([['form', 'is not free']]));
    expect(fieldErrors(refusal('The host is away.', ['start']), en)).toEqual(new Map([['form', 'The host is away.']]));
    expect(fieldErrors(refusal('The host is away.'), en)).toEqual(new Map([['form', 'The host is away.']]));
    expect(fieldErrors(refusal('The host is away.', 'attendee.email'), en)).toEqual(new Map([['form', 'The host is away.']]));
    expect(fieldErrors(refusal('The host is away.', [42, null]), en)).toEqual(new Map([['form', 'The host is away.']]));
    // A clause begins with its field: ": x" names none.
    expect(fieldErrors(refusal(': odd', ['count']), en)).toEqual(new Map([['count', en.fieldInvalid]]));
  });
});
