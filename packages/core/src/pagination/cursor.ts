import { fingerprintOf } from '../canonical-json.js';
import { ScheduleError } from '../errors.js';

/** docs/api/requests.md "Request limits": page size default 20, at most 100. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Where a keyset page resumes: the sort value and uid of the last row shown. */
export interface CursorPosition {
  readonly value: string;
  readonly uid: string;
}

interface CursorBody {
  /** Binds the cursor to the query it came from. */
  q: string;
  v: string;
  u: string;
}

/** A short fingerprint of the filters and sort that define a list (not its page size or cursor). */
export function queryBinding(query: Record<string, unknown>): string {
  return fingerprintOf(query).slice(0, 16);
}

/** An opaque cursor for the next page of the query bound by `binding`. */
export function encodeCursor(binding: string, position: CursorPosition): string {
  const body: CursorBody = { q: binding, v: position.value, u: position.uid };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * Reads a cursor back. One that does not parse, or that came from another
 * query, is `400 invalid_query_param` naming `cursor` (docs/api/choices.md).
 */
export function decodeCursor(cursor: string, binding: string): CursorPosition {
  const invalid = () => new ScheduleError('invalid_query_param', 'The cursor is not valid for this query.', { param: 'cursor' });
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof body !== 'object' || body === null) throw invalid();
  const { q, v, u } = body as Partial<CursorBody>;
  if (q !== binding || typeof v !== 'string' || typeof u !== 'string') throw invalid();
  return { value: v, uid: u };
}

/** A page of a list, as every list endpoint answers it. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
}

/**
 * The page of a keyset query that fetched `limit + 1` rows: the extra row
 * only tells that there is more; the cursor resumes after the last shown.
 */
export function pageOf<Row, T>(
  rows: readonly Row[],
  limit: number,
  binding: string,
  positionOf: (row: Row) => CursorPosition,
  view: (row: Row) => T,
): Page<T> {
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return {
    items: shown.map(view),
    hasMore,
    nextCursor: hasMore && last !== undefined ? encodeCursor(binding, positionOf(last)) : null,
  };
}
