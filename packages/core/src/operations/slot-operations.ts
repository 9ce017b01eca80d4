import { parseQuery } from '../pagination/query-params.js';
import { checkSlot, listSlots } from '../slots/find-slots.js';
import { checkSlotQuerySchema, listSlotsQuerySchema } from '../slots/slot-queries.js';
import { slotCheckSchema, slotListSchema } from '../slots/slot-view.js';
import { defineOperation } from './operation.js';

export const listSlotsOperation = defineOperation({
  name: 'list_slots',
  method: 'GET',
  path: '/v1/slots',
  scope: 'slots:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param', 'event_type_not_found', 'availability_unavailable'],
  schemas: { params: [], input: listSlotsQuerySchema, output: slotListSchema, list: false },
  parse: (call) => parseQuery(listSlotsQuerySchema, call.query),
  async run(ctx, query) {
    const { store, clock, calendars } = ctx.deps;
    return { status: 200, data: await listSlots({ db: store.db, clock, calendars }, ctx.principal, query) };
  },
});

export const checkSlotOperation = defineOperation({
  name: 'check_slot',
  method: 'GET',
  path: '/v1/slots/check',
  scope: 'slots:read',
  idempotencyKey: 'none',
  ifMatch: 'none',
  errors: ['invalid_query_param', 'event_type_not_found', 'availability_unavailable'],
  schemas: { params: [], input: checkSlotQuerySchema, output: slotCheckSchema, list: false },
  parse: (call) => parseQuery(checkSlotQuerySchema, call.query),
  async run(ctx, query) {
    const { store, clock, calendars } = ctx.deps;
    return { status: 200, data: await checkSlot({ db: store.db, clock, calendars }, ctx.principal, query) };
  },
});
