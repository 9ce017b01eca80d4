import { createCalendarReader, DEFAULT_LIMITS } from '@schedule/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ET, IMPORTED, TOKEN } from './support/mcp-workspace.js';
import { call, expectToolError, fails, ok, openSuite, type Suite } from './support/tool-calls.js';

// What happens before and around an operation: the token is checked and
// counted in its rate-limit bucket on every call (docs/workspace.md: stdio acts
// with the token's "rate-limit bucket"), and an unexpected fault is
// internal_error without a stack trace (docs/api/choices.md).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const THREE_PER_MINUTE = { ...DEFAULT_LIMITS, pat_per_minute: 3, oauth_per_minute: 120, anonymous_per_minute: 30 };
const UNAUTHORIZED = { code: 'unauthorized', message: 'The token is missing, unknown, revoked or expired.', details: {} };

describe('admission and faults', () => {
  let suite: Suite;
  afterEach(() => suite.world.close());

  describe('rate limit', () => {
    const limited = async (secret: string, retryAfter: number) => ({
      code: 'rate_limited',
      message: `Rate limit of 3 requests per 60 seconds exceeded; retry in ${retryAfter} seconds.`,
      details: {
        bucket: `pat:${(await suite.principal(secret)).tokenId}`,
        limit: 3,
        window_seconds: 60,
        retry_after_seconds: retryAfter,
      },
    });

    it("answers the call after the token's bucket is exhausted with rate_limited and its exact details", async () => {
      suite = await openSuite({ limits: THREE_PER_MINUTE });
      const uma = await suite.client(TOKEN.uma);
      await ok(uma, 'whoami');
      await ok(uma, 'get_booking', { uid: IMPORTED.tue });
      await ok(uma, 'list_event_types');
      await fails(uma, 'get_booking', { uid: IMPORTED.tue }, await limited(TOKEN.uma, 60));
      suite.clock.advance(45_000);
      await fails(uma, 'whoami', {}, await limited(TOKEN.uma, 15));
    });

    it('counts per token: a second token of the same user still works', async () => {
      suite = await openSuite({ limits: THREE_PER_MINUTE });
      const uma = await suite.client(TOKEN.uma);
      for (let i = 0; i < 3; i++) await ok(uma, 'whoami');
      await fails(uma, 'whoami', {}, await limited(TOKEN.uma, 60));
      const second = await suite.client(TOKEN.umaSecond);
      expect((await ok(second, 'get_booking', { uid: IMPORTED.tue })).uid).toBe(IMPORTED.tue);
    });

    it('counts calls refused for a missing scope in the same bucket', async () => {
      suite = await openSuite({ limits: THREE_PER_MINUTE });
      const few = await suite.client(TOKEN.umaFew);
      for (let i = 0; i < 3; i++) expect((await call(few, 'list_slots', { event_type_id: ET.weekly })).isError).toBe(true);
      await fails(few, 'whoami', {}, await limited(TOKEN.umaFew, 60));
    });

    it('opens a fresh window at the minute boundary', async () => {
      suite = await openSuite({ limits: THREE_PER_MINUTE });
      const uma = await suite.client(TOKEN.uma);
      for (let i = 0; i < 3; i++) await ok(uma, 'whoami');
      suite.clock.advance(59_999);
      await fails(uma, 'whoami', {}, await limited(TOKEN.uma, 1));
      suite.clock.advance(1);
      expect((await ok(uma, 'whoami')).username).toBe('uma');
    });
  });

  describe('a token revoked after connecting', () => {
    it('answers every later call with unauthorized, and another token still works', async () => {
      suite = await openSuite();
      const uma = await suite.client(TOKEN.uma);
      await ok(uma, 'whoami');
      await suite.reload({ revoked: [TOKEN.uma] });
      await fails(uma, 'whoami', {}, UNAUTHORIZED);
      await fails(uma, 'get_booking', { uid: IMPORTED.tue }, UNAUTHORIZED);
      // The toolsets tool too: it is the connection's own, and still its token's.
      await fails(uma, 'toolsets', { enable: ['series'] }, UNAUTHORIZED);
      await fails(
        uma,
        'create_booking',
        { event_type_id: ET.weekly, start: '2026-03-02T10:00:00Z', attendee: { email: 'c@example.com' } },
        UNAUTHORIZED,
      );
      const second = await suite.client(TOKEN.umaSecond);
      expect((await ok(second, 'whoami')).username).toBe('uma');
    });

    it('refuses its resources', async () => {
      suite = await openSuite();
      const uma = await suite.client(TOKEN.uma);
      await suite.reload({ revoked: [TOKEN.uma] });
      await expect(uma.readResource({ uri: 'schedule://me' })).rejects.toThrow(/unauthorized/);
      await expect(uma.readResource({ uri: 'schedule://people' })).rejects.toThrow(/unauthorized/);
    });
  });

  describe('an unexpected fault', () => {
    it('answers internal_error with a request id and no stack trace, and hands the error to logError', async () => {
      const fault = new Error('feed parser crashed');
      suite = await openSuite({
        overrides: {
          calendars: createCalendarReader(async () => {
            throw fault;
          }),
        },
      });
      const ian = await suite.client(TOKEN.ian);
      const result = await call(ian, 'list_slots', { event_type_id: ET.feed, start: '2026-03-02T00:00:00Z', end: '2026-03-03T00:00:00Z' });
      const requestId = result.structuredContent?.error?.details?.request_id as string;
      expect(requestId).toMatch(UUID);
      expectToolError(result, 'internal_error', 'Something went wrong on our side; it has been logged.', { request_id: requestId });
      expect(suite.world.errors).toEqual([fault]);
      const text = JSON.stringify(result);
      expect(text).not.toContain('feed parser crashed');
      expect(text).not.toMatch(/\bat .+:\d+:\d+/);
    });

    it('leaves calls that do not meet the fault working', async () => {
      suite = await openSuite({
        overrides: {
          calendars: createCalendarReader(async () => {
            throw new Error('feed parser crashed');
          }),
        },
      });
      const uma = await suite.client(TOKEN.uma);
      expect(await ok(uma, 'check_slot', { event_type_id: ET.weekly, start: '2026-03-02T10:00:00Z' })).toEqual({
        available: true,
        duration_minutes: 30,
      });
      expect(suite.world.errors).toEqual([]);
    });
  });
});
