import type { PublicEventType, Question, ScheduleError } from '@schedule/core';
import { DateTime } from 'luxon';
import type { Messages } from './messages/messages.js';
import { type FormFields, field } from './read-form.js';
import type { FormValues } from './views/booking-form.js';

// Between the form a browser posts and the bodies of `POST /v1/bookings`
// and `POST /v1/series`: the page only reshapes what was typed; every value
// is judged by the operation, and its refusals are put back beside the
// fields they name.

/** What was typed, as the form shows it again. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function formValues(form: FormFields, type: PublicEventType): FormValues {
  const repeat = field(form, 'repeat');
  return {
    name: field(form, 'name') ?? '',
    email: field(form, 'email') ?? '',
    guests: field(form, 'guests') ?? '',
    // Only the form's own holder can use it (core holds/holder.ts); a bad one is answered as no hold.
    holdId: (field(form, 'hold_id') ?? '').slice(0, 64),
    answers: new Map(type.questions.map((q) => [q.id, form.get(`q.${q.id}`) ?? []])),
    repeat: repeat === 'weekly' || repeat === 'monthly' ? repeat : 'none',
    count: field(form, 'count') ?? '4',
  };
}

/** An answer as `responses` takes it; undefined for none (a required question then is refused as unanswered). */
function answerOf(q: Question, given: readonly string[]): unknown {
  const first = given[0];
  switch (q.type) {
    case 'multi_select':
      return given.length === 0 ? undefined : [...given];
    case 'boolean':
      // An unticked box is "no" unless the question must be ticked, which "no" would answer.
      return first === 'true' ? true : q.required ? undefined : false;
    case 'number': {
      if (first === undefined || first.trim() === '') return undefined;
      const number = Number(first.trim().replace(',', '.'));
      // Not a number: sent as typed, for the operation to refuse in its own words.
      return Number.isFinite(number) ? number : first;
    }
    default:
      return first === undefined || first === '' ? undefined : first;
  }
}

/** The guests typed one per line (or separated by commas), as a list of emails. */
export function guestsOf(text: string): string[] {
  return text
    .split(/[\n,;]/)
    .map((g) => g.trim())
    .filter((g) => g !== '');
}

/** The attendee and the event type a booking or series from the page names. */
function common(type: PublicEventType, values: FormValues, zone: string) {
  return {
    username: type.host.username,
    event_slug: type.slug,
    attendee: { name: values.name.trim(), email: values.email.trim() },
    timezone: zone,
    zoneForAttendee: zone,
  };
}

/** The body of `POST /v1/bookings`. */
export function bookingBody(type: PublicEventType, values: FormValues, start: string, zone: string): Record<string, unknown> {
  const { zoneForAttendee, ...named } = common(type, values, zone);
  const responses = Object.fromEntries(
    type.questions.map((q) => [q.id, answerOf(q, values.answers.get(q.id) ?? [])]).filter(([, answer]) => answer !== undefined),
  );
  return {
    ...named,
    start,
    ...(UUID.test(values.holdId) ? { hold_id: values.holdId } : {}),
    attendee: { ...named.attendee, timezone: zoneForAttendee },
    guests: guestsOf(values.guests),
    ...(type.questions.length > 0 ? { responses } : {}),
    metadata: { booked_from: 'booking_page' },
  };
}

/**
 * The body of `POST /v1/series` (and its preview) for "repeat weekly or
 * monthly N times" from the chosen start: on its weekday or its day of the
 * month, at its time, in the visitor's zone.
 */
export function seriesBody(type: PublicEventType, values: FormValues, start: string, zone: string): Record<string, unknown> {
  const { zoneForAttendee: _, ...named } = common(type, values, zone);
  const local = DateTime.fromISO(start, { zone });
  const count = Number(values.count);
  return {
    host_username: type.host.username,
    ...named,
    frequency: values.repeat === 'weekly' ? 'weekly' : 'monthly_same_day',
    ...(values.repeat === 'weekly' ? { weekdays: [local.toFormat('ccc').toLowerCase()] } : {}),
    time: local.toFormat('HH:mm'),
    starts_on: local.toISODate(),
    count: Number.isInteger(count) ? count : values.count,
  };
}

/** Where an operation's field is on the form: `attendee.email` is `email`, `responses.topic` is `q.topic`. */
function formFieldOf(apiField: string): string {
  if (apiField === 'attendee.name') return 'name';
  if (apiField === 'attendee.email') return 'email';
  if (apiField.startsWith('guests')) return 'guests';
  if (apiField.startsWith('responses.')) return `q.${apiField.slice('responses.'.length).split('.')[0]}`;
  if (apiField === 'count') return 'count';
  return 'form';
}

/**
 * A refusal of the operation as errors beside the fields it names, in the
 * operation's own words for each (the clause `field: rule` it wrote for
 * that field), or the page's words when it has none.
 */
export function fieldErrors(error: ScheduleError, m: Messages): Map<string, string> {
  const details = error.details as { fields?: unknown } | undefined;
  const fields = Array.isArray(details?.fields) ? details.fields.filter((f): f is string => typeof f === 'string') : [];
  const clauses = new Map(
    error.message.split('; ').flatMap((clause) => {
      const at = clause.indexOf(': ');
      return at > 0 ? [[clause.slice(0, at), clause.slice(at + 2)] as const] : [];
    }),
  );
  const errors = new Map<string, string>();
  // Its message names the rule, not in the `field: rule` form: said in the visitor's words instead.
  if (error.code === 'attendee_email_invalid') errors.set('email', m.emailInvalid);
  for (const apiField of fields) {
    const id = formFieldOf(apiField);
    if (!errors.has(id)) errors.set(id, clauses.get(apiField) ?? (id === 'form' ? error.message : m.fieldInvalid));
  }
  if (errors.size === 0) errors.set('form', error.message);
  return errors;
}
