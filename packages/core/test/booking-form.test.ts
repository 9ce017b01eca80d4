import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { answerProblem, checkAnswers, type Question } from '../src/event-types/questions.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { createBooking } from './support/booking-calls.js';
import { ET, loadBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// Issue 11, "Event-type questions": a form asks typed questions, and the
// answers a booking gives must fit them, so that the host gets what the form
// asked for whichever front end booked.

const FORM: Question[] = [
  { id: 'agenda', label: 'Agenda', type: 'long_text', required: true },
  { id: 'seats', label: 'Seats', type: 'number', required: false },
  { id: 'recorded', label: 'Record it?', type: 'boolean', required: false },
  { id: 'room', label: 'Room', type: 'select', options: ['north', 'south'], required: false },
  { id: 'topics', label: 'Topics', type: 'multi_select', options: ['price', 'plan', 'team'], required: false },
];

describe('answerProblem', () => {
  const [agenda, seats, recorded, room, topics] = FORM as [Question, Question, Question, Question, Question];
  it.each([
    [agenda, 'Q3 plans', undefined],
    [agenda, 3, 'must be text'],
    [seats, 4, undefined],
    [seats, '4', 'must be a number'],
    [recorded, false, undefined],
    [recorded, 'no', 'must be true or false'],
    [room, 'north', undefined],
    [room, 'east', 'must be one of north, south'],
    [topics, ['price', 'team'], undefined],
    [topics, ['price', 'golf'], 'must be a list of price, plan, team'],
    [topics, 'price', 'must be a list of price, plan, team'],
  ])('%o answered %o: %s', (question, answer, problem) => {
    expect(answerProblem(question, answer)).toBe(problem);
  });

  it('a required question left empty is named before any misfit', async () => {
    expect(await scheduleErrorOf(() => checkAnswers(FORM, { agenda: '', seats: 'x' }))).toEqual({
      code: 'validation_error',
      message: 'Required questions are unanswered: responses.agenda.',
      details: { fields: ['responses.agenda'] },
      retryAfterSeconds: undefined,
    });
  });
});

describe.each(storeFixtures())('a booking answers the form on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let hana: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    const clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock }, [], { form: { questions: FORM } });
    hana = await principalOf({ store, clock }, TOKEN.hana);
  });
  afterAll(() => fixture.cleanup());

  const body = (responses: Record<string, unknown>) => ({
    event_type_id: ET.form,
    start: '2026-03-02T10:00:00Z',
    attendee: { email: 'bob@example.com' },
    responses,
  });

  it('answers of the wrong kind are 400 validation_error naming each, and nothing is booked', async () => {
    const refused = await scheduleErrorOf(createBooking(deps, hana, body({ agenda: 'Plans', seats: '4', room: 'east' }), 'misfit'));
    expect(refused).toEqual({
      code: 'validation_error',
      message: 'responses.seats: must be a number; responses.room: must be one of north, south',
      details: { fields: ['responses.seats', 'responses.room'] },
      retryAfterSeconds: undefined,
    });
    expect(await store.db.selectFrom('bookings').select('uid').execute()).toEqual([]);
  });

  it('answers that fit are stored as sent, unknown keys included', async () => {
    const responses = { agenda: 'Plans', seats: 4, recorded: true, room: 'south', topics: ['plan'], note: 'kept' };
    const created = await createBooking(deps, hana, body(responses), 'fits');
    expect(created.outcome.status).toBe(201);
    expect((created.outcome.data as { responses: unknown }).responses).toEqual(responses);
  });
});
