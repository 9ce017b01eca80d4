import {
  createEventTypeBodySchema,
  parseCreateEventTypeBody,
  parseUpdateEventTypeBody,
  updateEventTypeBodySchema,
} from '../event-types/event-type-input.js';
import { toEventTypeView } from '../event-types/event-type-rows.js';
import { eventTypeSchema } from '../event-types/event-type-view.js';
import { findVisibleEventType } from '../event-types/find-event-type.js';
import { archiveEventType, createEventType, type EventTypeWriteDeps, updateEventType } from '../event-types/write-event-type.js';
import { mapLockTimeout } from '../storage/host-lock.js';
import { pathParam, requiredIfMatch } from './call-parts.js';
import { defineOperation, type OperationContext } from './operation.js';

// docs/api/event-types.md. The list is the directory's (directory-operations.ts);
// these read one type whole and change it. Whom a caller may change types for
// is whom it may act for, as for series.

function writeDeps(ctx: OperationContext): EventTypeWriteDeps {
  return { clock: ctx.deps.clock, ids: ctx.deps.ids, dialect: ctx.deps.store.dialect, pages: ctx.deps.pages };
}

export const getEventTypeOperation = defineOperation({
  name: 'get_event_type',
  method: 'GET',
  path: '/v1/event-types/:id',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['event_type_not_found'],
  schemas: { params: ['id'], output: eventTypeSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id') }),
  async run(ctx, { id }) {
    const view = toEventTypeView(await findVisibleEventType(ctx.deps.store.db, ctx.principal, id), ctx.deps.pages);
    return { status: 200, data: view, version: view.version };
  },
});

export const createEventTypeOperation = defineOperation({
  name: 'create_event_type',
  method: 'POST',
  path: '/v1/event-types',
  scope: 'event_types:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: ['validation_error', 'host_not_allowed', 'slug_taken'],
  schemas: { params: [], input: createEventTypeBodySchema, output: eventTypeSchema, list: false },
  parse: (call) => parseCreateEventTypeBody(call.body),
  async run(ctx, body) {
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const view = await createEventType(trx, writeDeps(ctx), ctx.principal, body);
        return { status: 201, data: view, version: view.version, location: `/v1/event-types/${view.id}` };
      }),
    );
  },
});

export const updateEventTypeOperation = defineOperation({
  name: 'update_event_type',
  method: 'PATCH',
  path: '/v1/event-types/:id',
  scope: 'event_types:write',
  idempotencyKey: 'optional',
  ifMatch: 'required',
  errors: [
    'field_immutable',
    'validation_error',
    'host_not_allowed',
    'event_type_not_found',
    'version_conflict',
    'slug_taken',
    'invalid_change',
  ],
  schemas: { params: ['id'], input: updateEventTypeBodySchema, output: eventTypeSchema, list: false },
  parse: (call) => ({
    id: pathParam(call.params, 'id'),
    ifMatch: requiredIfMatch(call),
    patch: parseUpdateEventTypeBody(call.body),
  }),
  async run(ctx, { id, ifMatch, patch }) {
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const view = await updateEventType(trx, writeDeps(ctx), ctx.principal, id, ifMatch, patch);
        return { status: 200, data: view, version: view.version };
      }),
    );
  },
});

export const deleteEventTypeOperation = defineOperation({
  name: 'delete_event_type',
  method: 'DELETE',
  path: '/v1/event-types/:id',
  scope: 'event_types:write',
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['event_type_not_found'],
  schemas: { params: ['id'], output: eventTypeSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id') }),
  async run(ctx, { id }) {
    return ctx.write(async (trx) => {
      const view = await archiveEventType(trx, writeDeps(ctx), ctx.principal, id);
      return { status: 200, data: view, version: view.version };
    });
  },
});
