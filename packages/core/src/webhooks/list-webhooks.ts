import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { decodeCursor, type Page, pageOf, queryBinding } from '../pagination/cursor.js';
import { cursorParam, limitParam } from '../pagination/query-params.js';
import type { Database } from '../storage/schema.js';
import type { Executor } from '../storage/store.js';
import { toWebhook, type Webhook } from './webhook-view.js';

/** The query of `GET /v1/webhooks`. */
export const listWebhooksQuerySchema = z.object({ limit: limitParam(), cursor: cursorParam });
export type ListWebhooksQuery = z.output<typeof listWebhooksQuerySchema>;

/** The caller's own webhooks, newest first (`created_at`, then `id`, both descending), one keyset page at a time. */
export async function listWebhooks(db: Executor, principal: Principal, query: ListWebhooksQuery): Promise<Page<Webhook>> {
  const { limit, cursor } = query;
  // Bound to the owner: a cursor of one account's list is no cursor of another's.
  const binding = queryBinding({ list: 'webhooks', owner: principal.account.id });
  let q = db.selectFrom('webhooks').selectAll().where('owner_user_id', '=', principal.account.id);
  if (cursor !== undefined) {
    const after = decodeCursor(cursor, binding);
    q = q.where((eb: ExpressionBuilder<Database, 'webhooks'>) =>
      eb.or([eb('created_at', '<', after.value), eb.and([eb('created_at', '=', after.value), eb('id', '<', after.uid)])]),
    );
  }
  const rows = await q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return pageOf(rows, limit, binding, (row) => ({ value: row.created_at, uid: row.id }), toWebhook);
}
