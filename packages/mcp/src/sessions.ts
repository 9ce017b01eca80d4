import { type Executor, toTimestamp } from '@schedule/core';
import { parseToolsets, type ToolsetName } from './toolsets.js';

/** Sessions not used for this long are deleted when another opens: a client that comes back after a month starts over. */
const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The sessions one token keeps at most: opening another lets its least
 * recently used go. A client that initializes on every request (or a token
 * shared by many clients) cannot grow the table past this; a session let go
 * only lists the default toolsets again.
 */
export const MAX_SESSIONS_PER_TOKEN = 100;

/** How stale a session's `used_at` may get before a request that names it writes it again. */
const TOUCH_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * Where an MCP connection over Streamable HTTP keeps the toolsets it
 * switched on (the `toolsets` tool). The server is stateless, so every
 * request builds its server again; the session id the client carries names
 * the row, and any process reads it. A session is its token's: with
 * another token, the id names nothing.
 */
export interface SessionStore {
  open(tokenId: string, toolsets: readonly ToolsetName[]): Promise<string>;
  /** The session's toolsets, or undefined for an unknown id or another token's. */
  toolsets(id: string, tokenId: string): Promise<readonly ToolsetName[] | undefined>;
  save(id: string, tokenId: string, toolsets: readonly ToolsetName[]): Promise<void>;
}

export function sessionStore(db: Executor, clock: { now(): number }, ids: { uuid(): string }): SessionStore {
  return {
    async open(tokenId, toolsets) {
      const id = ids.uuid();
      const now = clock.now();
      await db
        .deleteFrom('mcp_sessions')
        .where('used_at', '<', toTimestamp(now - SESSION_LIFETIME_MS))
        .execute();
      await db
        .insertInto('mcp_sessions')
        .values({ id, token_id: tokenId, toolsets: toolsets.join(','), created_at: toTimestamp(now), used_at: toTimestamp(now) })
        .execute();
      const kept = db
        .selectFrom('mcp_sessions')
        .select('id')
        .where('token_id', '=', tokenId)
        .orderBy('used_at', 'desc')
        .orderBy('id', 'desc')
        .limit(MAX_SESSIONS_PER_TOKEN);
      // The new one among them even when a clock set back makes it look older: it was just handed out.
      await db
        .deleteFrom('mcp_sessions')
        .where('token_id', '=', tokenId)
        .where('id', '!=', id)
        .where('id', 'not in', (eb) => eb.selectFrom(kept.as('kept')).select('kept.id'))
        .execute();
      return id;
    },
    async toolsets(id, tokenId) {
      const row = await db
        .selectFrom('mcp_sessions')
        .select(['toolsets', 'used_at'])
        .where('id', '=', id)
        .where('token_id', '=', tokenId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      // A session in use stays: its use is written down once a day at most, not on every request.
      const now = clock.now();
      if (row.used_at < toTimestamp(now - TOUCH_EVERY_MS)) {
        await db
          .updateTable('mcp_sessions')
          .set({ used_at: toTimestamp(now) })
          .where('id', '=', id)
          .execute();
      }
      // A name dropped by a later release is passed over, not refused: the session predates it.
      return parseToolsets(row.toolsets, { lenient: true });
    },
    async save(id, tokenId, toolsets) {
      await db
        .updateTable('mcp_sessions')
        .set({ toolsets: toolsets.join(','), used_at: toTimestamp(clock.now()) })
        .where('id', '=', id)
        .where('token_id', '=', tokenId)
        .execute();
    },
  };
}
