import { parseQuery } from '../pagination/query-params.js';
import { mapLockTimeout } from '../storage/host-lock.js';
import { findTimeOff } from '../time-off/find-time-off.js';
import { listTimeOff } from '../time-off/list-time-off.js';
import {
  createTimeOffBodySchema,
  listTimeOffQuerySchema,
  parseCreateTimeOffBody,
  parseUpdateTimeOffBody,
  updateTimeOffBodySchema,
} from '../time-off/time-off-input.js';
import { timeOffOwner } from '../time-off/time-off-owner.js';
import { timeOffSchema, toTimeOff } from '../time-off/time-off-view.js';
import { createTimeOff, deleteTimeOff, updateTimeOff } from '../time-off/write-time-off.js';
import { pathParam, requiredIfMatch } from './call-parts.js';
import { defineOperation, type ListOutcome, listOutcome } from './operation.js';

// docs/api/time-off.md. The path names whose time off (`me`, an id or a
// username); the caller must be able to act for them (`403 host_not_allowed`).
// Time off is busy time for availability (availability/time-off-busy.ts).

const PATH = '/v1/people/:user_id/time-off';

export const listTimeOffOperation = defineOperation({
  name: 'list_time_off',
  method: 'GET',
  path: PATH,
  scope: 'availability:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param', 'host_not_allowed'],
  schemas: { params: ['user_id'], input: listTimeOffQuerySchema, output: timeOffSchema, list: true },
  parse: (call) => ({ userId: pathParam(call.params, 'user_id'), query: parseQuery(listTimeOffQuerySchema, call.query) }),
  async run(ctx, { userId, query }): Promise<ListOutcome> {
    const owner = await timeOffOwner(ctx.deps.store.db, ctx.principal, userId);
    return listOutcome(await listTimeOff(ctx.deps.store.db, owner.id, query));
  },
});

export const getTimeOffOperation = defineOperation({
  name: 'get_time_off',
  method: 'GET',
  path: `${PATH}/:id`,
  scope: 'availability:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['host_not_allowed', 'time_off_not_found'],
  schemas: { params: ['user_id', 'id'], output: timeOffSchema, list: false },
  parse: (call) => ({ userId: pathParam(call.params, 'user_id'), id: pathParam(call.params, 'id') }),
  async run(ctx, { userId, id }) {
    const owner = await timeOffOwner(ctx.deps.store.db, ctx.principal, userId);
    const row = await findTimeOff(ctx.deps.store.db, owner.id, id);
    return { status: 200, data: toTimeOff(row), version: row.version };
  },
});

export const createTimeOffOperation = defineOperation({
  name: 'create_time_off',
  method: 'POST',
  path: PATH,
  scope: 'availability:write',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: ['validation_error', 'host_not_allowed', 'time_off_limit_reached'],
  schemas: { params: ['user_id'], input: createTimeOffBodySchema, output: timeOffSchema, list: false },
  parse: (call) => ({ userId: pathParam(call.params, 'user_id'), body: parseCreateTimeOffBody(call.body) }),
  async run(ctx, { userId, body }) {
    // The cap's count waits for the person's row lock: 503 slot_lock_timeout when it is held too long.
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const owner = await timeOffOwner(trx, ctx.principal, userId);
        const timeOff = await createTimeOff(trx, ctx.deps, owner, body);
        const location = `/v1/people/${owner.id}/time-off/${timeOff.id}`;
        return { status: 201, data: timeOff, version: timeOff.version, location };
      }),
    );
  },
});

export const updateTimeOffOperation = defineOperation({
  name: 'update_time_off',
  method: 'PATCH',
  path: `${PATH}/:id`,
  scope: 'availability:write',
  idempotencyKey: 'optional',
  ifMatch: 'required',
  errors: ['validation_error', 'host_not_allowed', 'time_off_not_found', 'version_conflict'],
  schemas: { params: ['user_id', 'id'], input: updateTimeOffBodySchema, output: timeOffSchema, list: false },
  parse: (call) => ({
    userId: pathParam(call.params, 'user_id'),
    id: pathParam(call.params, 'id'),
    ifMatch: requiredIfMatch(call),
    patch: parseUpdateTimeOffBody(call.body),
  }),
  async run(ctx, { userId, id, ifMatch, patch }) {
    return ctx.write(async (trx) => {
      const owner = await timeOffOwner(trx, ctx.principal, userId);
      const timeOff = await updateTimeOff(trx, ctx.deps, owner, id, ifMatch, patch);
      return { status: 200, data: timeOff, version: timeOff.version };
    });
  },
});

export const deleteTimeOffOperation = defineOperation({
  name: 'delete_time_off',
  method: 'DELETE',
  path: `${PATH}/:id`,
  scope: 'availability:write',
  // A retry with the same key answers the first deletion again rather than 404.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['host_not_allowed', 'time_off_not_found'],
  schemas: { params: ['user_id', 'id'], output: timeOffSchema, list: false },
  parse: (call) => ({ userId: pathParam(call.params, 'user_id'), id: pathParam(call.params, 'id') }),
  async run(ctx, { userId, id }) {
    return ctx.write(async (trx) => {
      const owner = await timeOffOwner(trx, ctx.principal, userId);
      return { status: 200, data: await deleteTimeOff(trx, ctx.deps, owner, id) };
    });
  },
});
