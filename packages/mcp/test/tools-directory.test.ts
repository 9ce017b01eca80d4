import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, ET, NAME_OF, ROLE_OF, TOKEN, USER, type Username } from './support/mcp-workspace.js';
import { call, fails, ok, openSuite, type Suite } from './support/tool-calls.js';

// The directory (issue 5 part 4): whoami, list_people and list_event_types as
// tools and as resources, showing only what the token may act for.

const person = (name: Username) => ({
  user_id: USER[name],
  username: name,
  name: NAME_OF[name],
  email: `${name}@acme.test`,
  timezone: 'UTC',
  role: ROLE_OF[name],
});

const eventType = (id: string, owner: Username, slug: string, name: string, recurring = 'on') => ({
  id,
  slug,
  name,
  owner: { user_id: USER[owner], username: owner },
  duration_minutes: 30,
  status: 'on',
  recurring,
  allow_reschedule: true,
  minimum_notice_minutes: 0,
  cancel_notice_minutes: 0,
  reschedule_notice_minutes: 0,
  future_limit_days: 400,
  timezone: 'UTC',
  questions: [],
  // This suite's core serves no booking pages (deps.pages unset); test/booking-page-http.test.ts sees the address.
  booking_url: null,
});

const ALL_EVENT_TYPES = [
  eventType(ET.feed, 'ian', 'feed', 'Feed'),
  eventType(ET.chat, 'ulf', 'chat', 'Chat'),
  eventType(ET.single, 'uma', 'single', 'Single', 'off'),
  eventType(ET.weekly, 'uma', 'weekly', 'Weekly'),
];

describe('directory tools and resources', () => {
  let suite: Suite;
  let olga: Client;
  let max: Client;

  beforeAll(async () => {
    suite = await openSuite();
    olga = await suite.client(TOKEN.olga);
    max = await suite.client(TOKEN.max);
  });
  afterAll(() => suite.world.close());

  describe('whoami', () => {
    it('answers an owner with every scope and acts_for "organization"', async () => {
      expect(await ok(olga, 'whoami', {})).toEqual({
        ...person('olga'),
        credential: 'pat',
        scopes: [...ALL_SCOPES].sort(),
        acts_for: 'organization',
      });
    });

    it("answers a manager with the ids of themself and the people managed, and a token's own scopes", async () => {
      expect(await ok(max, 'whoami', {})).toMatchObject({ username: 'max', acts_for: [USER.max, USER.uma].sort() });
      const few = await suite.client(TOKEN.umaFew);
      expect(await ok(few, 'whoami', {})).toEqual({
        ...person('uma'),
        credential: 'pat',
        scopes: ['bookings:read'],
        acts_for: [USER.uma],
      });
    });

    it('answers an argument with validation_error naming it', async () => {
      await fails(
        olga,
        'whoami',
        { verbose: true },
        {
          code: 'validation_error',
          message: 'whoami takes no arguments.',
          details: { fields: ['verbose'] },
        },
      );
    });
  });

  describe('list_people', () => {
    it('answers everyone for an owner, by username, in one page', async () => {
      expect(await ok(olga, 'list_people', {})).toEqual({
        data: (['ian', 'max', 'olga', 'ulf', 'uma'] as const).map(person),
        next_cursor: null,
        has_more: false,
      });
    });

    it('answers a manager with themself and the people managed', async () => {
      expect(await ok(max, 'list_people', {})).toEqual({ data: [person('max'), person('uma')], next_cursor: null, has_more: false });
    });

    it('pages with limit and next_cursor to the end', async () => {
      const first = await ok(olga, 'list_people', { limit: 2 });
      expect({ data: first.data, has_more: first.has_more }).toEqual({ data: [person('ian'), person('max')], has_more: true });
      const second = await ok(olga, 'list_people', { limit: 2, cursor: first.next_cursor });
      expect({ data: second.data, has_more: second.has_more }).toEqual({ data: [person('olga'), person('ulf')], has_more: true });
      expect(await ok(olga, 'list_people', { limit: 2, cursor: second.next_cursor })).toEqual({
        data: [person('uma')],
        next_cursor: null,
        has_more: false,
      });
    });

    it('summarizes one line per person', async () => {
      const result = await call(max, 'list_people', {});
      expect(result.content).toEqual([
        {
          type: 'text',
          text: [
            '2 item(s); no more pages',
            `${USER.max} max "Max Manager" max@acme.test UTC manager`,
            `${USER.uma} uma "Uma User" uma@acme.test UTC user`,
          ].join('\n'),
        },
      ]);
    });

    it('answers a cursor it never gave with invalid_query_param naming cursor (docs/api/choices.md "Idempotency, versions and lists")', async () => {
      await fails(
        olga,
        'list_people',
        { cursor: 'not a cursor!' },
        {
          code: 'invalid_query_param',
          message: 'The cursor is not valid for this query.',
          details: { param: 'cursor' },
        },
      );
    });

    it('answers limit 0 with invalid_query_param naming limit', async () => {
      await fails(
        olga,
        'list_people',
        { limit: 0 },
        {
          code: 'invalid_query_param',
          message: 'limit: must be an integer from 1 to 100.',
          details: { param: 'limit' },
        },
      );
    });

    it('refuses an argument it does not take with validation_error naming it (issue 11: no longer passed over)', async () => {
      await fails(
        olga,
        'list_people',
        { role: 'owner' },
        {
          code: 'validation_error',
          message: 'list_people takes no arguments besides limit, cursor.',
          details: { fields: ['role'] },
        },
      );
    });
  });

  describe('list_event_types', () => {
    it('answers every event type for an owner, by owner and slug', async () => {
      expect(await ok(olga, 'list_event_types', {})).toEqual({ data: ALL_EVENT_TYPES, next_cursor: null, has_more: false });
    });

    it("answers a manager with the managed people's event types only", async () => {
      expect(await ok(max, 'list_event_types', {})).toEqual({
        data: [eventType(ET.single, 'uma', 'single', 'Single', 'off'), eventType(ET.weekly, 'uma', 'weekly', 'Weekly')],
        next_cursor: null,
        has_more: false,
      });
    });

    it('pages with limit and next_cursor', async () => {
      const first = await ok(olga, 'list_event_types', { limit: 3 });
      expect({ data: first.data, has_more: first.has_more }).toEqual({ data: ALL_EVENT_TYPES.slice(0, 3), has_more: true });
      expect(await ok(olga, 'list_event_types', { limit: 3, cursor: first.next_cursor })).toEqual({
        data: ALL_EVENT_TYPES.slice(3),
        next_cursor: null,
        has_more: false,
      });
    });

    it('summarizes one line per event type with its id, owner/slug and whether series are allowed', async () => {
      const result = await call(max, 'list_event_types', {});
      expect(result.content).toEqual([
        {
          type: 'text',
          text: [
            '2 item(s); no more pages',
            `${ET.single} uma/single "Single" 30min recurring=off status=on`,
            `${ET.weekly} uma/weekly "Weekly" 30min recurring=on status=on`,
          ].join('\n'),
        },
      ]);
    });

    it('answers limit 0 with invalid_query_param naming limit', async () => {
      await fails(
        olga,
        'list_event_types',
        { limit: 0 },
        {
          code: 'invalid_query_param',
          message: 'limit: must be an integer from 1 to 100.',
          details: { param: 'limit' },
        },
      );
    });
  });

  describe('resources', () => {
    const read = async (client: Client, uri: string) => {
      const { contents } = await client.readResource({ uri });
      expect(contents).toHaveLength(1);
      const [content] = contents as { uri: string; mimeType?: string; text: string }[];
      expect({ uri: content!.uri, mimeType: content!.mimeType }).toEqual({ uri, mimeType: 'application/json' });
      return JSON.parse(content!.text) as unknown;
    };

    for (const [who, clientOf] of [
      ['an owner', () => olga],
      ['a manager', () => max],
    ] as const) {
      it(`schedule://me is whoami for ${who}`, async () => {
        const client = clientOf();
        expect(await read(client, 'schedule://me')).toEqual(await ok(client, 'whoami', {}));
      });

      it(`schedule://people is list_people's data for ${who}`, async () => {
        const client = clientOf();
        expect(await read(client, 'schedule://people')).toEqual((await ok(client, 'list_people', {})).data);
      });

      it(`schedule://event-types is list_event_types's data for ${who}`, async () => {
        const client = clientOf();
        expect(await read(client, 'schedule://event-types')).toEqual((await ok(client, 'list_event_types', {})).data);
      });
    }
  });
});
