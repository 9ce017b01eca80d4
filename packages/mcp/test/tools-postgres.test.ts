import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dropPostgresSchema, openStore, randomIds } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionStore } from '../src/sessions.js';
import { ET, IMPORTED, M0, TOKEN, USER } from './support/mcp-workspace.js';
import { ok, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// The core flow once on PostgreSQL (the other suites run on SQLite
// :memory:): the store creates a fresh schema, dropped afterwards.

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('the core flow on PostgreSQL', () => {
  const schema = `mcp_${randomBytes(6).toString('hex')}`;
  let suite: Suite | undefined;
  let uma: Client;

  beforeAll(async () => {
    suite = await openSuite({ db: `${DATABASE_URL}?schema=${schema}` });
    uma = await suite.client(TOKEN.uma);
  });
  afterAll(async () => {
    await suite?.world.close();
    await dropPostgresSchema(DATABASE_URL, schema);
  });

  it('books, creates a series with source "mcp", and lists both, as core stores them', async () => {
    const booking = await ok(uma, 'create_booking', {
      event_type_id: ET.weekly,
      start: '2026-03-02T10:00:00Z',
      attendee: { email: 'carol@example.com', name: 'Carol' },
      idempotency_key: 'pg-book',
    });
    expect(booking).toMatchObject({ version: 1, status: 'confirmed', start_at: '2026-03-02T10:00:00.000Z', created_at: M0 });
    expect(
      await ok(uma, 'create_booking', {
        event_type_id: ET.weekly,
        start: '2026-03-02T10:00:00Z',
        attendee: { email: 'carol@example.com', name: 'Carol' },
        idempotency_key: 'pg-book',
      }),
    ).toEqual(booking);

    const { series, occurrences, skipped } = await ok(uma, 'create_series', {
      host_user_id: USER.uma,
      event_type_id: ET.weekly,
      attendee: { email: 'bob@example.com' },
      frequency: 'weekly',
      weekdays: ['mon'],
      time: '10:00',
      starts_on: '2026-03-09',
      count: 2,
    });
    expect({ source: series.source, status: series.status, booked: occurrences.length, skipped }).toEqual({
      source: 'mcp',
      status: 'active',
      booked: 2,
      skipped: [],
    });

    const bookings = await ok(uma, 'list_bookings', { sort: 'start_at_asc' });
    expect(bookings).toEqual(await viaCore(suite!, TOKEN.uma, 'list_bookings', { query: { sort: 'start_at_asc' } }));
    expect(bookings.data.map((b: { uid: string }) => b.uid)).toEqual([
      booking.uid,
      IMPORTED.tue,
      IMPORTED.wed,
      IMPORTED.thu,
      ...occurrences.map((o: { uid: string }) => o.uid),
    ]);
    expect(await ok(uma, 'list_series', {})).toEqual({ data: [series], next_cursor: null, has_more: false });
  });

  it("finds and books in two calls, letting the other holds go, and keeps a session's toolsets for another process", async () => {
    const found = await ok(uma, 'find_times', { event_type: 'weekly', from: '2026-03-03', to: '2026-03-05' });
    expect(found.not_held_reason).toBeNull();
    const booked = await ok(uma, 'book_time', { option_id: found.options[1].option_id, attendee: { email: 'kim@example.com' } });
    expect(booked.start_at).toBe(found.options[1].start);
    expect(await suite!.world.store.db.selectFrom('holds').select('id').execute()).toEqual([]);

    // A session opened by one process is read by another on the same database, and by its token only.
    const principal = await suite!.principal(TOKEN.uma);
    const one = sessionStore(suite!.world.store.db, suite!.clock, randomIds);
    const id = await one.open(principal.tokenId, ['booking', 'manage']);
    const other = await openStore(`${DATABASE_URL}?schema=${schema}`);
    try {
      const two = sessionStore(other.db, suite!.clock, randomIds);
      await two.save(id, principal.tokenId, ['booking', 'manage', 'series']);
      expect(await one.toolsets(id, principal.tokenId)).toEqual(['booking', 'manage', 'series']);
      expect(await two.toolsets(id, 'another-token')).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
