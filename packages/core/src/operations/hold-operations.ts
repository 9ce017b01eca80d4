import { insertHold, prepareHold } from '../bookings/create-hold.js';
import { createHoldBodySchema } from '../holds/hold-input.js';
import { holdSchema } from '../holds/hold-view.js';
import { releaseHold } from '../holds/use-hold.js';
import { mapLockTimeout } from '../storage/host-lock.js';
import { parseBody } from '../validation/parse-body.js';
import { pathParam } from './call-parts.js';
import { defineOperation, type OperationContext } from './operation.js';

function holdDeps(ctx: OperationContext) {
  const { store, clock, ids, calendars } = ctx.deps;
  return { db: store.db, dialect: store.dialect, clock, ids, calendars };
}

// Holding is the first step of booking, so it takes the booking scope: a
// token that may book may hold, and one that may not, cannot block times either.
export const createHoldOperation = defineOperation({
  name: 'create_hold',
  method: 'POST',
  path: '/v1/holds',
  scope: 'bookings:create',
  idempotencyKey: 'required',
  ifMatch: 'none',
  errors: [
    'validation_error',
    'forbidden',
    'event_type_not_found',
    'event_type_inactive',
    'slot_in_past',
    'availability_unavailable',
    'slot_unavailable',
    'hold_limit_reached',
    'slot_lock_timeout',
  ],
  schemas: { params: [], input: createHoldBodySchema, output: holdSchema, list: false },
  parse: (call) => parseBody(createHoldBodySchema, call.body),
  async run(ctx, body) {
    const deps = holdDeps(ctx);
    const prepared = await prepareHold(deps, ctx.principal, body);
    return mapLockTimeout(() =>
      ctx.write(async (trx) => {
        const hold = await insertHold(trx, deps, ctx.principal, body, prepared);
        return { status: 201, data: hold, location: `/v1/holds/${hold.id}` };
      }),
    );
  },
});

export const releaseHoldOperation = defineOperation({
  name: 'release_hold',
  method: 'DELETE',
  path: '/v1/holds/:id',
  scope: 'bookings:create',
  // A retry with the same key answers the first release again rather than 404.
  idempotencyKey: 'optional',
  ifMatch: 'none',
  errors: ['hold_not_found'],
  schemas: { params: ['id'], output: holdSchema, list: false },
  parse: (call) => ({ id: pathParam(call.params, 'id') }),
  async run(ctx, { id }) {
    return ctx.write(async (trx) => ({ status: 200, data: await releaseHold(trx, ctx.principal, id) }));
  },
});
