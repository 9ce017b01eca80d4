import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { closestName, DEFAULT_LIMITS, operations } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToolsets } from '../src/index.js';
import { argumentNames } from '../src/unknown-arguments.js';
import { ET, IMPORTED, TOKEN, USER } from './support/mcp-workspace.js';
import { bookingUids, call, expectToolError, fails, openSuite, type Suite } from './support/tool-calls.js';

// Issue 11 item 4: an argument a tool does not take is refused, naming it,
// never passed over (a model that sends `statuses` would otherwise believe
// it filtered).

const BOOKING_ARGUMENTS =
  'limit, cursor, sort, event_type_id, host_user_id, series_id, attendee_email, status, start_date, end_date, updated_since, include_cancelled, uid_prefix';

/**
 * The PATCH tools leave every field to core, which answers it as docs/api says (field_immutable,
 * invalid_change; validation_error naming it for a webhook, docs/webhooks.md). They and the
 * working hours' PUT require If-Match, whose absence is answered first; core's unknown-fields
 * test holds their bodies.
 */
const PATCH_TOOLS = new Set([
  'update_booking',
  'update_series',
  'update_webhook',
  'update_time_off',
  'update_person',
  'update_event_type',
  'replace_availability',
]);

describe('strict tool arguments', () => {
  let suite: Suite;
  let olga: Client;

  beforeAll(async () => {
    suite = await openSuite();
    // Every toolset: the self-service tools outside the default are held to the same rule.
    olga = await suite.client(TOKEN.olga, parseToolsets('all'));
  });
  afterAll(() => suite.world.close());

  it('answers statuses on list_bookings with validation_error naming it, and suggests status', async () => {
    await fails(
      olga,
      'list_bookings',
      { statuses: 'confirmed' },
      {
        code: 'validation_error',
        message: `list_bookings takes no arguments besides ${BOOKING_ARGUMENTS}. Did you mean status (not statuses)?`,
        details: { fields: ['statuses'] },
      },
    );
  });

  it('names every unknown argument, with a hint only where a known one is close', async () => {
    await fails(
      olga,
      'list_bookings',
      { host_id: USER.uma, colour: 'blue', limit: 5 },
      {
        code: 'validation_error',
        message: `list_bookings takes no arguments besides ${BOOKING_ARGUMENTS}. Did you mean host_user_id (not host_id)?`,
        details: { fields: ['host_id', 'colour'] },
      },
    );
  });

  it('refuses an unknown argument on every tool, whatever else it was sent', async () => {
    for (const operation of operations.filter((o) => !PATCH_TOOLS.has(o.name))) {
      const result = await call(olga, operation.name, { zz_unknown: true });
      expect({
        tool: operation.name,
        code: result.structuredContent?.error?.code,
        details: result.structuredContent?.error?.details,
      }).toEqual({
        tool: operation.name,
        code: 'validation_error',
        details: { fields: ['zz_unknown'] },
      });
    }
  });

  it('books nothing when create_booking gets a valid booking and one unknown argument', async () => {
    const before = await bookingUids(suite);
    const book = { event_type_id: ET.weekly, start: '2026-03-02T11:00:00Z', attendee: { email: 'carol@example.com' } };
    const result = await call(olga, 'create_booking', { ...book, notes: 'bring slides' });
    expect(result.structuredContent?.error).toMatchObject({ code: 'validation_error', details: { fields: ['notes'] } });
    expect(await bookingUids(suite)).toEqual(before);
  });

  // Issue 29 item 13: get_booking without uid answered booking_not_found, as if an empty uid had been looked up.
  it('answers a missing path argument with validation_error naming it, and one that is not text likewise', async () => {
    await fails(olga, 'get_booking', {}, { code: 'validation_error', message: 'uid: is required.', details: { fields: ['uid'] } });
    await fails(
      olga,
      'cancel_booking',
      { reason: 'x' },
      { code: 'validation_error', message: 'uid: is required.', details: { fields: ['uid'] } },
    );
    await fails(
      olga,
      'get_booking',
      { uid: 5 },
      { code: 'validation_error', message: 'uid: must be a string.', details: { fields: ['uid'] } },
    );
    await fails(
      olga,
      'list_webhook_deliveries',
      {},
      { code: 'validation_error', message: 'id: is required.', details: { fields: ['id'] } },
    );
  });

  it('refuses idempotency_key on a read and if_match on a tool that takes none', async () => {
    expectToolError(
      await call(olga, 'get_booking', { uid: IMPORTED.tue, idempotency_key: 'k' }),
      'validation_error',
      'get_booking takes no arguments besides uid.',
      {
        fields: ['idempotency_key'],
      },
    );
    const cancel = await call(olga, 'cancel_booking', { uid: IMPORTED.tue, if_match: 1 });
    expect(cancel.structuredContent?.error).toMatchObject({ code: 'validation_error', details: { fields: ['if_match'] } });
  });

  it('answers a typo of a patchable field on update_booking as the endpoint does: field_immutable, with the field meant', async () => {
    await fails(
      olga,
      'update_booking',
      { uid: IMPORTED.wed, if_match: 1, metdata: { topic: 'x' } },
      {
        code: 'field_immutable',
        message:
          'These fields cannot be patched: metdata. Change start by reschedule and end a booking by cancel. Did you mean metadata (not metdata)?',
        details: { fields: ['metdata'] },
      },
    );
  });

  it('refuses a misspelled field of create_booking’s attendee, naming its path and the field meant, and books nothing', async () => {
    const before = await bookingUids(suite);
    const book = { event_type_id: ET.weekly, start: '2026-03-02T11:00:00Z', attendee: { email: 'carol@example.com', nmae: 'Carol' } };
    await fails(olga, 'create_booking', book, {
      code: 'validation_error',
      message: 'Unknown field: attendee.nmae. Did you mean attendee.name (not attendee.nmae)?',
      details: { fields: ['attendee.nmae'] },
    });
    expect(await bookingUids(suite)).toEqual(before);
  });

  it('leaves a field of the series that cannot be patched to core: update_series answers invalid_change naming it', async () => {
    const series = await call(olga, 'create_series', {
      host_user_id: USER.uma,
      event_type_id: ET.weekly,
      attendee: { email: 'bob@example.com' },
      frequency: 'weekly',
      weekdays: ['mon'],
      time: '10:00',
      starts_on: '2026-03-09',
      count: 1,
    });
    await fails(
      olga,
      'update_series',
      { uid: series.structuredContent?.series.uid, if_match: 1, count: 5 },
      {
        code: 'invalid_change',
        message:
          'These fields cannot be changed this way: count. Only frequency, interval_weeks, weekdays, time, location_url, notify_invitee can be patched, and location_url cannot be cleared.',
        details: { fields: ['count'] },
      },
    );
  });

  it('leaves a field of the webhook that cannot be patched to core: update_webhook answers validation_error naming it', async () => {
    const webhook = await call(olga, 'create_webhook', { url: 'https://hooks.example.test/in', events: ['booking.created'] });
    await fails(
      olga,
      'update_webhook',
      { id: webhook.structuredContent?.id, if_match: 1, secret: 'whsec_mine' },
      {
        code: 'validation_error',
        message: 'These fields cannot be patched: secret. Send any of url, events, description, status.',
        details: { fields: ['secret'] },
      },
    );
  });
});

describe('argument names and hints', () => {
  const listBookings = operations.find((o) => o.name === 'list_bookings')!;
  const createBooking = operations.find((o) => o.name === 'create_booking')!;

  it("are the operation's path parameters, query or body fields, and the headers it takes", () => {
    expect(argumentNames(listBookings).join(', ')).toBe(BOOKING_ARGUMENTS);
    expect(argumentNames(operations.find((o) => o.name === 'resume_series')!)).toEqual(['uid', 'idempotency_key', 'if_match']);
    expect(argumentNames(operations.find((o) => o.name === 'whoami')!)).toEqual([]);
  });

  it.each([
    ['statuses', 'status'],
    ['hostUserId', 'host_user_id'],
    ['host_id', 'host_user_id'],
    ['host', 'host_user_id'],
    ['email', 'attendee_email'],
    ['start', 'start_date'],
    ['limt', 'limit'],
    ['include_canceled', 'include_cancelled'],
    ['since', 'updated_since'],
  ])('list_bookings: %s suggests %s', (unknown, meant) => {
    expect(closestName(unknown, argumentNames(listBookings))).toBe(meant);
  });

  it.each([
    ['start_time', 'start'],
    ['meta', 'metadata'],
    ['key', 'idempotency_key'],
    ['time_zone', 'timezone'],
    ['slug', 'event_slug'],
  ])('create_booking: %s suggests %s', (unknown, meant) => {
    expect(closestName(unknown, argumentNames(createBooking))).toBe(meant);
  });

  it.each([['id'], ['order'], ['notes'], ['xyz']])('suggests nothing for %s on list_bookings', (unknown) => {
    expect(closestName(unknown, argumentNames(listBookings))).toBeUndefined();
  });
});

describe('arguments named in the words of tools', () => {
  let suite: Suite;
  let everyone: Client;

  beforeAll(async () => {
    // One call per argument of every tool: far more than a token's minute allows.
    suite = await openSuite({ limits: { ...DEFAULT_LIMITS, pat_per_minute: 100_000 } });
    everyone = await suite.client(TOKEN.olga, parseToolsets('all'));
  });
  afterAll(() => suite.world.close());

  // Issue 36 part 5: a bad argument is named in the tool's own words, never as a query parameter, body field or header.
  it('answers a wrong value of any argument of any tool naming only arguments of that tool, in its words', async () => {
    // A value of no argument's type, and a string too long for any (an idempotency_key's bound is checked in core's words).
    const wrongs = [{ bad: [1] }, 'x'.repeat(300)];
    let refusals = 0;
    for (const operation of operations) {
      const names = argumentNames(operation);
      for (const [name, wrong] of names.flatMap((name) => wrongs.map((wrong) => [name, wrong] as const))) {
        const result = await call(everyone, operation.name, {
          [name]: wrong,
          ...(names.includes('confirm') && name !== 'confirm' ? { confirm: true } : {}),
        });
        if (!result.isError) continue;
        expect(result.structuredContent?.error.code).not.toBe('rate_limited');
        refusals++;
        const { message, details } = (result.structuredContent as { error: { message: string; details: Record<string, unknown> } }).error;
        const named = [...((details.fields as string[] | undefined) ?? []), ...(details.param ? [details.param as string] : [])];
        const shown = { tool: operation.name, argument: name, named: named.map((field) => field.split('.')[0]) };
        expect(shown).toEqual({ ...shown, named: shown.named.filter((field) => names.includes(field!)) });
        expect({ ...shown, message }).toEqual({
          ...shown,
          message: expect.not.stringMatching(/[Qq]uery parameter|Idempotency-Key|If-Match|header|request body/),
        });
      }
    }
    expect(refusals).toBeGreaterThan(600);
  });
});
