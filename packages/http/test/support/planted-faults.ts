import { defineOperation, isUuid, type Operation, ScheduleError, toTimestamp } from '@schedule/core';
import { z } from 'zod';

// Bugs planted on purpose, each the kind a real handler could have, to show
// that the fuzzer's property can fail: if it passed with these in the app, a
// pass without them would prove nothing.

/** The message of the planted fault, to find it in the app's log. */
export const PLANTED_FAULT = 'planted fault: uid is not a UUID';

/** Throws a plain Error on a uid that is not a UUID, where it should answer 404: a 500 (no-5xx). */
export const throwsOnOddUid: Operation = defineOperation({
  name: 'planted_throw',
  method: 'POST',
  path: '/v1/planted/:uid',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: [],
  schemas: { params: ['uid'], output: z.object({}), list: false },
  parse: (call) => ({ uid: call.params.uid ?? '' }),
  run: async (_ctx, { uid }) => {
    if (!isUuid(uid)) throw new Error(PLANTED_FAULT);
    return { status: 200, data: {} };
  },
});

/** Writes an outbox row, then refuses the request without rolling the write back (refusal-unchanged). */
export const writesThenRefuses: Operation = defineOperation({
  name: 'planted_write',
  method: 'POST',
  path: '/v1/planted-write',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['validation_error'],
  schemas: { params: [], output: z.object({}), list: false },
  parse: (call) => ({ body: call.body }),
  run: async (ctx, { body }) => {
    await ctx.deps.store.db
      .insertInto('outbox')
      .values({
        id: ctx.deps.ids.uuid(),
        event_type: 'planted.written',
        subject_uid: ctx.requestId,
        payload_json: '{}',
        created_at: toTimestamp(ctx.deps.clock.now()),
        dispatched_at: null,
      })
      .execute();
    if (body !== undefined) throw new ScheduleError('validation_error', 'Refused after writing.', { fields: [] });
    return { status: 200, data: {} };
  },
});

/** Forgets to return its data: the envelope loses `data` (envelope). */
export const answersWithoutData: Operation = defineOperation({
  name: 'planted_no_data',
  method: 'GET',
  path: '/v1/planted-empty',
  scope: null,
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: [],
  schemas: { params: [], input: z.object({ limit: z.string().optional() }), output: z.object({}), list: false },
  parse: (call) => ({ limit: call.query.limit }),
  run: async (_ctx, { limit }) => ({ status: 200, data: limit === undefined ? {} : undefined }),
});
