import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { type Page, queryBinding } from '../pagination/cursor.js';
import { cursorParam, limitParam } from '../pagination/query-params.js';
import type { Executor } from '../storage/store.js';
import { newestFirstPage } from './newest-first.js';
import { toWebhook, type Webhook } from './webhook-view.js';

/** The query of `GET /v1/webhooks`. */
export const listWebhooksQuerySchema = z.object({ limit: limitParam(), cursor: cursorParam });
export type ListWebhooksQuery = z.output<typeof listWebhooksQuerySchema>;

/** The caller's own webhooks, newest first (`created_at`, then `id`, both descending), one keyset page at a time. */
export async function listWebhooks(db: Executor, principal: Principal, query: ListWebhooksQuery): Promise<Page<Webhook>> {
  const { limit, cursor } = query;
  // Bound to the owner: a cursor of one account's list is no cursor of another's.
  const binding = queryBinding({ list: 'webhooks', owner: principal.account.id });
  const selection = db.selectFrom('webhooks').selectAll().where('owner_user_id', '=', principal.account.id);
  return newestFirstPage(selection, { limit, cursor, binding }, toWebhook);
}
