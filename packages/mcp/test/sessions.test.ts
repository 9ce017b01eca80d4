import { randomBytes } from 'node:crypto';
import { dropPostgresSchema, manualClock, openStore, randomIds, type Store } from '@schedule/core';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_TOKEN, sessionStore } from '../src/sessions.js';

// The sessions of Streamable HTTP connections (sessions.ts), on both stores:
// bound to their token, swept after 30 days unused, and capped per token.

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `mcps_${randomBytes(6).toString('hex')}`;
const STORES: [string, () => Promise<Store>][] = [
  ['sqlite', () => openStore(':memory:')],
  ['postgres', () => openStore(`${DATABASE_URL}?schema=${schema}`)],
];

afterAll(async () => {
  await dropPostgresSchema(DATABASE_URL, schema);
});

describe.each(STORES)('MCP sessions on %s', (_, open) => {
  it("keeps a token's newest sessions only, lets another token's be, and sweeps what went unused for 30 days", async () => {
    const store = await open();
    try {
      const clock = manualClock('2026-03-02T08:00:00.000Z');
      const sessions = sessionStore(store.db, clock, randomIds);
      const other = await sessions.open('token-b', ['booking', 'manage', 'series']);
      const opened: string[] = [];
      for (let i = 0; i < MAX_SESSIONS_PER_TOKEN + 2; i++) {
        clock.advance(1_000);
        opened.push(await sessions.open('token-a', ['booking', 'manage']));
      }
      const left = await store.db.selectFrom('mcp_sessions').select('id').where('token_id', '=', 'token-a').execute();
      expect(left).toHaveLength(MAX_SESSIONS_PER_TOKEN);
      expect(await sessions.toolsets(opened[0]!, 'token-a')).toBeUndefined();
      expect(await sessions.toolsets(opened[1]!, 'token-a')).toBeUndefined();
      expect(await sessions.toolsets(opened.at(-1)!, 'token-a')).toEqual(['booking', 'manage']);
      expect(await sessions.toolsets(other, 'token-b')).toEqual(['booking', 'manage', 'series']);
      // A session read now and then stays; one unused for 30 days goes when another opens.
      const used = opened.at(-1)!;
      for (let day = 0; day < 31; day++) {
        clock.advance(24 * 3_600_000 + 1);
        expect(await sessions.toolsets(used, 'token-a')).toEqual(['booking', 'manage']);
      }
      await sessions.open('token-c', ['booking', 'manage']);
      expect(await sessions.toolsets(other, 'token-b')).toBeUndefined();
      expect(await sessions.toolsets(opened.at(-2)!, 'token-a')).toBeUndefined();
      expect(await sessions.toolsets(used, 'token-a')).toEqual(['booking', 'manage']);
      expect(await store.db.selectFrom('mcp_sessions').select('id').execute()).toHaveLength(2);
    } finally {
      await store.close();
    }
  });
});
