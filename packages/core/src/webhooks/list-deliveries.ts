import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { type Page, queryBinding } from '../pagination/cursor.js';
import { csvParam, cursorParam, limitParam } from '../pagination/query-params.js';
import type { Executor } from '../storage/store.js';
import { findOwnWebhook } from './find-webhook.js';
import { newestFirstPage } from './newest-first.js';
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
  let selection = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhook.id);
  if (filters.status) selection = selection.where('status', 'in', filters.status);
  return newestFirstPage(selection, { limit, cursor, binding }, toDelivery);
}
