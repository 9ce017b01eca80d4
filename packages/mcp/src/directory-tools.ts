import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeCaller, type Executor, listEventTypes, listPeople, type Principal, ScheduleError } from '@schedule/core';
import { errorResult, successResult } from './call-tool.js';

// The directory (directory.ts in core) as tools, paged like every list tool:
// `limit` 1-100 (default 100) and an opaque cursor.

const DEFAULT_LIMIT = 100;

function pageArgs(args: Record<string, unknown>): { limit: number; after: string | undefined } {
  const { limit = DEFAULT_LIMIT, cursor, ...rest } = args;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new ScheduleError('validation_error', 'Only limit and cursor are accepted.', { fields: unknown });
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ScheduleError('invalid_query_param', 'limit must be an integer from 1 to 100.', { param: 'limit' });
  }
  if (cursor === undefined || cursor === null) return { limit, after: undefined };
  if (typeof cursor !== 'string') throw new ScheduleError('invalid_query_param', 'The cursor is not valid.', { param: 'cursor' });
  return { limit, after: Buffer.from(cursor, 'base64url').toString('utf8') };
}

/** One page of a list sorted by `keyOf`, resuming after the key a cursor names. */
function pageOf<T>(items: readonly T[], keyOf: (item: T) => string, args: Record<string, unknown>) {
  const { limit, after } = pageArgs(args);
  const rest = after === undefined ? items : items.filter((item) => keyOf(item) > after);
  const data = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  const last = data.at(-1);
  return { data, next_cursor: hasMore && last ? Buffer.from(keyOf(last)).toString('base64url') : null, has_more: hasMore };
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
          pageOf(await listPeople(db, principal), (p) => p.username, args),
        );
      case 'list_event_types':
        return successResult(
          name,
          pageOf(await listEventTypes(db, principal), (e) => `${e.owner.username}/${e.slug}`, args),
        );
    }
  } catch (error) {
    if (error instanceof ScheduleError) return errorResult(error);
    throw error;
  }
}
