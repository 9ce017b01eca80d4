import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { decodeCursor, type Page, pageOf, queryBinding } from '../pagination/cursor.js';
import { csvParam, cursorParam, limitParam } from '../pagination/query-params.js';
import type { Database } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { findOwnWebhook } from './find-webhook.js';
import { DELIVERY_STATUSES, type Delivery, toDelivery } from './webhook-view.js';

/** The query of `GET /v1/webhooks/:id/deliveries`. */
export const listDeliveriesQuerySchema = z.object({
  limit: limitParam(),
  cursor: cursorParam,
  status: csvParam(DELIVERY_STATUSES).optional(),
});
export type ListDeliveriesQuery = z.output<typeof listDeliveriesQuerySchema>;

/** The deliveries of the caller's webhook, newest first (`created_at`, then `id`, both descending). */
export async function listDeliveries(db: Executor, principal: Principal, id: string, query: ListDeliveriesQuery): Promise<Page<Delivery>> {
  const webhook = await findOwnWebhook(db, principal, id);
  const { limit, cursor, ...filters } = query;
  const binding = queryBinding({ list: 'webhook_deliveries', webhook: webhook.id, ...filters });
  let q = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhook.id);
  if (query.status) q = q.where('status', 'in', query.status);
  if (cursor !== undefined) {
    const after = decodeCursor(cursor, binding);
    q = q.where((eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
      eb.or([eb('created_at', '<', after.value), eb.and([eb('created_at', '=', after.value), eb('id', '<', after.uid)])]),
    );
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return pageOf(rows, limit, binding, (row) => ({ value: row.created_at, uid: row.id }), toDelivery);
}
