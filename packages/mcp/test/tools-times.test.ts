import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildServer } from '../src/index.js';
import { ET, IMPORTED, TOKEN } from './support/mcp-workspace.js';
import { call, fails, ok, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// find_times and book_time as tools (issue 36 part 2), the text of every
// time (part 3) and confirmation before a destructive act (part 4). The
// rules of both tools are core's (packages/core/test/times.test.ts); here,
// what a model reads and sends.

describe('find_times and book_time', () => {
  let suite: Suite;
  let uma: Client;

  beforeAll(async () => {
    suite = await openSuite();
    uma = await suite.client(TOKEN.uma);
  });
  afterAll(() => suite.world.close());
  beforeEach(async () => {
    suite.clock.set('2026-03-02T08:00:00.000Z');
    await suite.world.store.db.deleteFrom('holds').execute();
  });

  it('answers the options as core does, and a text of one line per option in both zones with how to book', async () => {
    const args = { event_type: 'weekly', attendee_timezone: 'America/New_York', part_of_day: 'morning', count: 2 };
    const result = await call(uma, 'find_times', args);
    const found = result.structuredContent as Record<string, any>;
    expect(found.options).toHaveLength(2);
    const [first, second] = found.options;
    expect(result.content[0]?.text?.split('\n')).toEqual([
      '2 option(s) for Weekly (30 min) with uma. Each is held until 2026-03-02T08:10:00.000Z. Book one with book_time and its option_id.',
      ...found.options.map(
        (o: Record<string, string>) => `${o.option_id}: ${o.attendee_time} for the attendee = ${o.host_time} for uma (${o.start})`,
      ),
    ]);
    // The imported Tuesday 10:00 is taken: the second option starts later that morning.
    expect([first.attendee_time, first.host_time, second.attendee_time, second.host_time]).toEqual([
      'Mon 2026-03-02 05:00 America/New_York (UTC-05:00)',
      'Mon 2026-03-02 10:00 UTC (UTC+00:00)',
      'Tue 2026-03-03 05:30 America/New_York (UTC-05:00)',
      'Tue 2026-03-03 10:30 UTC (UTC+00:00)',
    ]);
    // The same call through core, held anew, answers the same shape and times.
    await suite.world.store.db.deleteFrom('holds').execute();
    const core = await viaCore(suite, TOKEN.uma, 'find_times', { body: args, idempotencyKey: 'core-find' });
    expect(core.options.map((o: { start: string }) => o.start)).toEqual(found.options.map((o: { start: string }) => o.start));
  });

  it('books an option in a second call: the text names the booking in both zones; the booking equals get_booking', async () => {
    const found = await ok(uma, 'find_times', { event_type: 'weekly', attendee_timezone: 'Asia/Tokyo', from: '2026-03-09', count: 1 });
    const option = found.options[0];
    const result = await call(uma, 'book_time', {
      option_id: option.option_id,
      attendee: { email: 'kei@example.com', name: 'Kei', timezone: 'Asia/Tokyo' },
    });
    const booked = result.structuredContent as Record<string, any>;
    expect(result.content[0]?.text).toBe(
      [
        `Booked ${booked.uid} (confirmed, version 1): "Weekly between Uma User and Kei" with uma.`,
        `Starts ${option.start} = ${option.attendee_time} for the attendee = ${option.host_time} for the host.`,
        `Where: ${booked.location_url}`,
      ].join('\n'),
    );
    expect(option.attendee_time).toBe('Mon 2026-03-09 18:00 Asia/Tokyo (UTC+09:00)');
    expect(await viaCore(suite, TOKEN.uma, 'get_booking', { params: { uid: booked.uid } })).toMatchObject({
      start_at: option.start,
      attendees: [{ email: 'kei@example.com', timezone: 'Asia/Tokyo' }],
    });
  });

  it('names a same-day double booking of the attendee in the result and its text', async () => {
    // Bob has the imported Tuesday 10:00 booking with uma.
    const found = await ok(uma, 'find_times', {
      event_type: 'weekly',
      from: '2026-03-03',
      to: '2026-03-03',
      count: 1,
      attendee_timezone: 'UTC',
    });
    const result = await call(uma, 'book_time', {
      option_id: found.options[0].option_id,
      attendee: { email: 'bob@example.com', timezone: 'UTC' },
    });
    const message = `bob@example.com already meets uma that day: booking ${IMPORTED.tue} at Tue 2026-03-03 10:00 UTC (UTC+00:00).`;
    expect(result.structuredContent?.warnings).toEqual([{ code: 'attendee_booked_same_day', message }]);
    expect(result.content[0]?.text?.split('\n').at(-1)).toBe(`Warning (attendee_booked_same_day): ${message}`);
  });

  it('says when nothing is free, with the window searched', async () => {
    const result = await call(uma, 'find_times', { event_type: 'weekly', from: '2026-03-07', to: '2026-03-08' });
    expect(result.content[0]?.text).toBe(
      'No free time for Weekly (30 min) with uma from 2026-03-07 to 2026-03-08 (any, UTC). Try other days or part_of_day.',
    );
  });

  it('answers an option id that is none with validation_error naming option_id', async () => {
    await fails(
      uma,
      'book_time',
      { option_id: 'the first one', attendee: { email: 'bob@example.com' } },
      { code: 'validation_error', message: 'option_id: not an option_id find_times gave.', details: { fields: ['option_id'] } },
    );
  });
});

describe('confirmation before a destructive act', () => {
  let suite: Suite;

  beforeAll(async () => {
    suite = await openSuite();
  });
  afterAll(() => suite.world.close());

  /** A client that can show a form (elicitation) and answers it as told; the questions it was asked are kept. */
  async function askingClient(answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }) {
    const principal = await suite.principal(TOKEN.olga);
    const server = buildServer(suite.world.deps, { principal: async () => principal, address: 'in-memory' }, { scopes: principal.scopes });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'asks', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer;
    });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    return { client, asked };
  }

  const statusOf = async (uid: string) =>
    (await suite.world.store.db.selectFrom('bookings').select('status').where('uid', '=', uid).executeTakeFirstOrThrow()).status;

  it('asks the user through the client and cancels once they agree', async () => {
    const { client, asked } = await askingClient({ action: 'accept', content: { confirm: true } });
    const result = await call(client, 'cancel_booking', { uid: IMPORTED.tue });
    expect(result.isError).toBeUndefined();
    expect(asked).toEqual([`cancel booking ${IMPORTED.tue}: are you sure?`]);
    expect(await statusOf(IMPORTED.tue)).toBe('canceled');
  });

  it('does nothing when the user declines or leaves the box unticked, and says so', async () => {
    for (const answer of [{ action: 'decline' as const }, { action: 'accept' as const, content: { confirm: false } }]) {
      const { client, asked } = await askingClient(answer);
      const result = await call(client, 'cancel_booking', { uid: IMPORTED.wed });
      expect(result.structuredContent).toEqual({
        error: {
          code: 'validation_error',
          message: 'The user did not confirm; nothing was done.',
          details: { fields: ['confirm'], declined: true },
        },
      });
      expect(asked).toHaveLength(1);
      expect(await statusOf(IMPORTED.wed)).toBe('confirmed');
    }
  });

  it('asks nothing when confirm: true was passed, and asks nothing of a call that is not whole (it fails on its own)', async () => {
    const { client, asked } = await askingClient({ action: 'decline' });
    expect((await call(client, 'cancel_booking', { uid: IMPORTED.wed, confirm: true })).isError).toBeUndefined();
    expect(await statusOf(IMPORTED.wed)).toBe('canceled');
    const missing = await call(client, 'end_series', {});
    expect(missing.structuredContent?.error).toMatchObject({ code: 'validation_error', details: { fields: ['uid'] } });
    expect(asked).toEqual([]);
  });

  it('without a client that can ask, refuses until confirm: true, naming the argument; a non-destructive tool needs none', async () => {
    const olga = await suite.client(TOKEN.olga);
    await fails(
      olga,
      'cancel_booking',
      { uid: IMPORTED.thu },
      {
        code: 'validation_error',
        message: 'cancel_booking cannot be undone: ask the user, then call it again with confirm: true.',
        details: { fields: ['confirm'] },
      },
    );
    expect(await statusOf(IMPORTED.thu)).toBe('confirmed');
    await fails(
      olga,
      'reschedule_booking',
      { uid: IMPORTED.thu, start: '2026-03-05T11:00:00Z', confirm: true },
      {
        code: 'validation_error',
        message: 'reschedule_booking takes no arguments besides uid, start, timezone, reason, override_notice, idempotency_key.',
        details: { fields: ['confirm'] },
      },
    );
    expect((await call(olga, 'reschedule_booking', { uid: IMPORTED.thu, start: '2026-03-05T11:00:00Z' })).isError).toBeUndefined();
    expect((await call(olga, 'list_slots', { event_type_id: ET.weekly, start: '2026-03-02', end: '2026-03-03' })).isError).toBeUndefined();
  });
});
