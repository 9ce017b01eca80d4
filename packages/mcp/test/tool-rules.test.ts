import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ET, IMPORTED, TOKEN, USER } from './support/mcp-workspace.js';
import { bookingUids, fails, ok, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// The rules MCP shares with HTTP because both run core's `execute`:
// idempotency keys and If-Match (README.md "The MCP server", docs/api
// "Idempotency rules", docs/api/requests.md "Conditional requests").

const BOOK = { event_type_id: ET.weekly, start: '2026-03-02T10:00:00Z', attendee: { email: 'carol@example.com', name: 'Carol' } };
/** uma's two Mondays at 10:00 UTC from 2026-03-09. */
const MONDAYS = {
  host_user_id: USER.uma,
  event_type_id: ET.weekly,
  attendee: { email: 'bob@example.com' },
  frequency: 'weekly',
  weekdays: ['mon'],
  time: '10:00',
  starts_on: '2026-03-09',
  count: 2,
};
const KEY_CONFLICT = {
  code: 'idempotency_key_conflict',
  message: 'This idempotency_key was used within the last 24 hours with a different request.',
  details: {},
};

describe('rules shared with the HTTP API', () => {
  let suite: Suite;
  let uma: Client;

  beforeEach(async () => {
    suite = await openSuite();
    uma = await suite.client(TOKEN.uma);
  });
  afterEach(() => suite.world.close());

  const seriesUids = async () => (await suite.world.store.db.selectFrom('series').select('uid').execute()).map((r) => r.uid);

  describe('idempotency_key', () => {
    it('replays the first answer for the same key and the same arguments, booking once', async () => {
      const first = await ok(uma, 'create_booking', { ...BOOK, idempotency_key: 'book-once' });
      const again = await ok(uma, 'create_booking', { ...BOOK, idempotency_key: 'book-once' });
      expect(again).toEqual(first);
      expect(await bookingUids(suite)).toEqual([...Object.values(IMPORTED), first.uid].sort());
    });

    it('replays a series create for the same key: one series, the same occurrences', async () => {
      const args = { ...MONDAYS, idempotency_key: 'series-once' };
      const first = await ok(uma, 'create_series', args);
      expect(await ok(uma, 'create_series', args)).toEqual(first);
      expect(await seriesUids()).toEqual([first.series.uid]);
    });

    it('answers the same key with different arguments with idempotency_key_conflict, booking nothing more', async () => {
      await ok(uma, 'create_booking', { ...BOOK, idempotency_key: 'book-k' });
      await fails(uma, 'create_booking', { ...BOOK, start: '2026-03-02T11:00:00Z', idempotency_key: 'book-k' }, KEY_CONFLICT);
      expect(await bookingUids(suite)).toHaveLength(4);
    });

    it('answers the same key on another tool with idempotency_key_conflict (the route is part of the fingerprint)', async () => {
      await ok(uma, 'create_booking', { ...BOOK, idempotency_key: 'shared-k' });
      await fails(uma, 'cancel_booking', { uid: IMPORTED.tue, idempotency_key: 'shared-k', confirm: true }, KEY_CONFLICT);
    });

    it('replays over MCP a key first used over HTTP with the same body: one key space per account', async () => {
      const viaHttp = await viaCore(suite, TOKEN.uma, 'create_booking', { body: BOOK, idempotencyKey: 'http-then-mcp' });
      expect(await ok(uma, 'create_booking', { ...BOOK, idempotency_key: 'http-then-mcp' })).toEqual(viaHttp);
      expect(await bookingUids(suite)).toHaveLength(4);
    });

    it('works without a key, and two calls without keys are two requests: two bookings', async () => {
      const first = await ok(uma, 'create_booking', BOOK);
      const second = await ok(uma, 'create_booking', { ...BOOK, start: '2026-03-02T11:00:00Z' });
      expect(first.uid).not.toBe(second.uid);
      expect(await bookingUids(suite)).toEqual([...Object.values(IMPORTED), first.uid, second.uid].sort());
    });

    it('does not replay identical arguments sent without a key: the second books again and finds the slot taken', async () => {
      await ok(uma, 'create_booking', BOOK);
      await fails(uma, 'create_booking', BOOK, {
        code: 'slot_unavailable',
        message: 'The host is not free at this time.',
        details: { reason: 'slot_busy' },
      });
    });

    it('generates a key for resume_series and end_series, whose endpoints require one', async () => {
      const { series } = await ok(uma, 'create_series', MONDAYS);
      expect(await ok(uma, 'resume_series', { uid: series.uid })).toEqual({ created: 0, skipped: [], owed: 0, superseded: false });
      expect(await ok(uma, 'end_series', { uid: series.uid, confirm: true })).toEqual({ canceled: 2, superseded: false });
    });

    it('honours a key sent to pause_series, where it is optional: the repeat replays the first answer and bumps nothing', async () => {
      const { series } = await ok(uma, 'create_series', MONDAYS);
      expect(await ok(uma, 'pause_series', { uid: series.uid, idempotency_key: 'pause-k' })).toEqual({ held: 2, superseded: false });
      expect(await ok(uma, 'pause_series', { uid: series.uid, idempotency_key: 'pause-k' })).toEqual({ held: 2, superseded: false });
      expect((await viaCore(suite, TOKEN.uma, 'get_series', { params: { uid: series.uid } })).version).toBe(2);
    });

    it('runs pause_series again when no key is sent: the repeat holds nothing more but is a new action', async () => {
      const { series } = await ok(uma, 'create_series', MONDAYS);
      expect(await ok(uma, 'pause_series', { uid: series.uid })).toEqual({ held: 2, superseded: false });
      expect(await ok(uma, 'pause_series', { uid: series.uid })).toEqual({ held: 0, superseded: false });
      expect((await viaCore(suite, TOKEN.uma, 'get_series', { params: { uid: series.uid } })).version).toBe(3);
    });

    it('answers an empty key with validation_error, booking nothing', async () => {
      // details.fields names the HTTP header, as core words it for both front ends.
      await fails(
        uma,
        'create_booking',
        { ...BOOK, idempotency_key: '' },
        {
          code: 'validation_error',
          message: 'idempotency_key must be 1 to 255 characters.',
          details: { fields: ['idempotency_key'] },
        },
      );
      expect(await bookingUids(suite)).toHaveLength(3);
    });
  });

  describe('if_match', () => {
    it('accepts the version as 3, "3", "\\"3\\"" and "*"', async () => {
      const update = (ifMatch: unknown, topic: string) =>
        ok(uma, 'update_booking', { uid: IMPORTED.thu, if_match: ifMatch, metadata: { topic } });
      expect((await update(1, 'a')).version).toBe(2);
      expect((await update('2', 'b')).version).toBe(3);
      expect((await update('"3"', 'c')).version).toBe(4);
      const last = await update('*', 'd');
      expect({ version: last.version, metadata: last.metadata }).toEqual({ version: 5, metadata: { topic: 'd' } });
    });

    it('answers an if_match that is not a version with version_conflict on update_booking (it cannot match)', async () => {
      await fails(
        uma,
        'update_booking',
        { uid: IMPORTED.thu, if_match: 'abc', metadata: { topic: 'x' } },
        {
          code: 'version_conflict',
          message: 'The booking is at version 1.',
          details: { current_version: 1 },
        },
      );
    });

    it('accepts the quoted ETag form on update_series and on resume_series', async () => {
      const { series } = await ok(uma, 'create_series', MONDAYS);
      expect((await ok(uma, 'update_series', { uid: series.uid, if_match: '"1"', notify_invitee: false })).series.version).toBe(2);
      await ok(uma, 'pause_series', { uid: series.uid });
      expect(await ok(uma, 'resume_series', { uid: series.uid, if_match: '"3"' })).toEqual({
        created: 2,
        skipped: [],
        owed: 0,
        superseded: false,
      });
    });

    it('answers a stale if_match on resume_series with version_conflict and the current version, resuming nothing', async () => {
      const { series } = await ok(uma, 'create_series', MONDAYS);
      await ok(uma, 'pause_series', { uid: series.uid });
      await fails(
        uma,
        'resume_series',
        { uid: series.uid, if_match: 1 },
        {
          code: 'version_conflict',
          message: 'The series changed since it was read; read it again and retry.',
          details: { current_version: 2 },
        },
      );
      expect(await viaCore(suite, TOKEN.uma, 'get_series', { params: { uid: series.uid } })).toMatchObject({
        status: 'paused',
        version: 2,
      });
    });
  });
});
