import type { OperationName } from '@schedule/core';
import type { RunContext } from '../command-context.js';

/** Every item of a list operation, following `next_cursor` to the end (100 a page, the most a page holds). */
export async function listAll<T>(ctx: RunContext, operation: OperationName, query: Record<string, unknown> = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const result = await ctx.call(operation, { query: { ...query, limit: 100, cursor } });
    items.push(...(result.data as T[]));
    cursor = result.page?.hasMore ? (result.page.nextCursor ?? undefined) : undefined;
  } while (cursor !== undefined);
  return items;
}
