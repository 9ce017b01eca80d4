import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeCaller, type Executor, listEventTypes, listPeople, type Principal, ScheduleError } from '@schedule/core';
import { errorResult, successResult } from './call-tool.js';

// The directory (directory.ts in core) as tools, paged like every list tool:
// `limit` 1-100 (default 100) and an opaque cursor.

const DEFAULT_LIMIT = 100;

/** A cursor names the list it came from and the key to resume after. */
function encodeCursor(list: string, key: string): string {
  return Buffer.from(JSON.stringify({ l: list, k: key })).toString('base64url');
}

function decodeCursor(list: string, cursor: unknown): string {
  const invalid = new ScheduleError('invalid_query_param', 'The cursor is not valid for this list.', { param: 'cursor' });
  if (typeof cursor !== 'string') throw invalid;
  try {
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { l?: unknown; k?: unknown };
    if (body.l === list && typeof body.k === 'string') return body.k;
  } catch {
    // falls through to invalid
  }
  throw invalid;
}

function pageArgs(list: string, args: Record<string, unknown>): { limit: number; after: string | undefined } {
  const { limit = DEFAULT_LIMIT, cursor, ...rest } = args;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new ScheduleError('validation_error', 'Only limit and cursor are accepted.', { fields: unknown });
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ScheduleError('invalid_query_param', 'limit must be an integer from 1 to 100.', { param: 'limit' });
  }
  if (cursor === undefined || cursor === null) return { limit, after: undefined };
  return { limit, after: decodeCursor(list, cursor) };
}

/** One page of a list sorted by `keyOf`, resuming after the key a cursor names. */
function pageOf<T>(list: string, items: readonly T[], keyOf: (item: T) => string, args: Record<string, unknown>) {
  const { limit, after } = pageArgs(list, args);
  const rest = after === undefined ? items : items.filter((item) => keyOf(item) > after);
  const data = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  const last = data.at(-1);
  return { data, next_cursor: hasMore && last ? encodeCursor(list, keyOf(last)) : null, has_more: hasMore };
}

/** Runs a directory tool for an admitted caller. */
export async function callDirectoryTool(
  name: 'whoami' | 'list_people' | 'list_event_types',
  db: Executor,
  principal: Principal,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    switch (name) {
      case 'whoami':
        if (Object.keys(args).length > 0)
          throw new ScheduleError('validation_error', 'whoami takes no arguments.', { fields: Object.keys(args) });
        return successResult(name, describeCaller(principal));
      case 'list_people':
        return successResult(
          name,
          pageOf(name, await listPeople(db, principal), (p) => p.username, args),
        );
      case 'list_event_types':
        return successResult(
          name,
          pageOf(name, await listEventTypes(db, principal), (e) => `${e.owner.username}/${e.slug}`, args),
        );
    }
  } catch (error) {
    if (error instanceof ScheduleError) return errorResult(error);
    throw error;
  }
}
