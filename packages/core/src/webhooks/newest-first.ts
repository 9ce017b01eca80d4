import { type SelectQueryBuilder, sql } from 'kysely';
import { decodeCursor, type Page, pageOf } from '../pagination/cursor.js';
import type { Database } from '../storage/schema.js';

/**
 * One keyset page of webhooks or deliveries, newest first: `created_at`, then
 * `id`, both descending, the cursor bound to the list it came from. Both
 * lists page the same way, so the rule is written once.
 */
export async function newestFirstPage<
  Table extends 'webhooks' | 'webhook_deliveries',
  Row extends { created_at: string; id: string },
  View,
>(
  query: SelectQueryBuilder<Database, Table, Row>,
  page: { limit: number; cursor: string | undefined; binding: string },
  view: (row: Row) => View,
): Promise<Page<View>> {
  let q = query;
  if (page.cursor !== undefined) {
    const after = decodeCursor(page.cursor, page.binding);
    q = q.where(sql<boolean>`(created_at < ${after.value} or (created_at = ${after.value} and id < ${after.uid}))`);
  }
  const rows = await q
    .orderBy(sql`created_at`, 'desc')
    .orderBy(sql`id`, 'desc')
    .limit(page.limit + 1)
    .execute();
  return pageOf(rows, page.limit, page.binding, (row) => ({ value: row.created_at, uid: row.id }), view);
}
