import { describeCaller, directoryQuerySchema, listEventTypes, listPeople } from '../directory/directory.js';
import { callerSchema, eventTypeSummarySchema, personSchema } from '../directory/directory-view.js';
import { ScheduleError } from '../errors.js';
import { parseQuery } from '../pagination/query-params.js';
import { defineOperation, type ListOutcome, listOutcome } from './operation.js';

// Not in docs/api, which has no endpoint for users or event types: what a
// client needs before it can book (its own identity and zone, whose
// calendars it may use, which event types it can book). Any valid token may
// read them; they show only the caller's own set (docs/api/choices.md visibility).

export const whoamiOperation = defineOperation({
  name: 'whoami',
  method: 'GET',
  path: '/v1/me',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], output: callerSchema, list: false },
  parse: (call) => {
    const unknown = Object.keys(call.query);
    if (unknown.length > 0) throw new ScheduleError('invalid_query_param', (w) => `${w.call} takes no parameters.`, { param: unknown[0] });
    return {};
  },
  run: async (ctx) => ({ status: 200, data: describeCaller(ctx.principal) }),
});

export const listPeopleOperation = defineOperation({
  name: 'list_people',
  method: 'GET',
  path: '/v1/people',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], input: directoryQuerySchema, output: personSchema, list: true },
  parse: (call) => parseQuery(directoryQuerySchema, call.query),
  async run(ctx, query): Promise<ListOutcome> {
    return listOutcome(await listPeople(ctx.deps.store.db, ctx.principal, query));
  },
});

export const listEventTypesOperation = defineOperation({
  name: 'list_event_types',
  method: 'GET',
  path: '/v1/event-types',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param'],
  schemas: { params: [], input: directoryQuerySchema, output: eventTypeSummarySchema, list: true },
  parse: (call) => parseQuery(directoryQuerySchema, call.query),
  async run(ctx, query): Promise<ListOutcome> {
    return listOutcome(await listEventTypes(ctx.deps.store.db, ctx.principal, query, ctx.deps.pages));
  },
});
