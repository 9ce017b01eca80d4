import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ET, M0, TOKEN } from './support/mcp-workspace.js';
import { call, fails, ok, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// The two slot tools: read-only, so one world serves the whole file.

const MONDAY = { start: '2026-03-02T00:00:00Z', end: '2026-03-03T00:00:00Z' };

/** uma's Monday: half-hour slots from 09:00 to 16:30 UTC. */
const MONDAY_SLOTS = Array.from({ length: 16 }, (_, i) => {
  const startMin = 9 * 60 + i * 30;
  const at = (min: number) => `2026-03-02T${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}:00.000Z`;
  return { start: at(startMin), end: at(startMin + 30), available: true };
});

describe('slot tools', () => {
  let suite: Suite;
  let uma: Client;

  beforeAll(async () => {
    suite = await openSuite();
    uma = await suite.client(TOKEN.uma);
  });
  afterAll(() => suite.world.close());

  describe('list_slots', () => {
    it("answers the free slots of the window, equal to core's list", async () => {
      const slots = await ok(uma, 'list_slots', { event_type_id: ET.weekly, ...MONDAY });
      expect(slots).toEqual({ event_type_id: ET.weekly, timezone: 'UTC', computed_at: M0, slots: MONDAY_SLOTS });
      expect(slots).toEqual(await viaCore(suite, TOKEN.uma, 'list_slots', { query: { event_type_id: ET.weekly, ...MONDAY } }));
    });

    it('names the event type by username and event_slug as well', async () => {
      const slots = await ok(uma, 'list_slots', { username: 'uma', event_slug: 'weekly', ...MONDAY, timezone: 'Europe/Berlin' });
      expect(slots).toEqual({ event_type_id: ET.weekly, timezone: 'Europe/Berlin', computed_at: M0, slots: MONDAY_SLOTS });
    });

    it('answers one line per day of start times as text, beside the UTC slots as structured content', async () => {
      const result = await call(uma, 'list_slots', { event_type_id: ET.weekly, ...MONDAY });
      expect(result.content).toEqual([
        {
          type: 'text',
          text: [
            `16 free 30-minute slots for event type ${ET.weekly} on 1 day(s), start times in UTC; days not listed have none. Book one with start = date, time and offset, e.g. 2026-03-02T09:00:00Z.`,
            'Mon 2026-03-02 (UTC): 09:00 09:30 10:00 10:30 11:00 11:30 12:00 12:30 13:00 13:30 14:00 14:30 15:00 15:30 16:00 16:30',
          ].join('\n'),
        },
      ]);
    });

    it('labels the text in the zone asked for, with the offset to book by', async () => {
      const result = await call(uma, 'list_slots', { event_type_id: ET.weekly, ...MONDAY, timezone: 'Europe/Berlin' });
      expect(result.content[0]?.text?.split('\n')).toEqual([
        `16 free 30-minute slots for event type ${ET.weekly} on 1 day(s), start times in Europe/Berlin; days not listed have none. Book one with start = date, time and offset, e.g. 2026-03-02T10:00:00+01:00.`,
        'Mon 2026-03-02 (+01:00): 10:00 10:30 11:00 11:30 12:00 12:30 13:00 13:30 14:00 14:30 15:00 15:30 16:00 16:30 17:00 17:30',
      ]);
    });

    it('answers a window over 31 days with invalid_query_param naming end', async () => {
      await fails(
        uma,
        'list_slots',
        { event_type_id: ET.weekly, start: '2026-03-02T00:00:00Z', end: '2026-04-02T00:00:01Z' },
        {
          code: 'invalid_query_param',
          message: 'The window from start to end is at most 31 days.',
          details: { param: 'end' },
        },
      );
    });

    it('answers a token without slots:read with insufficient_scope naming it', async () => {
      const few = await suite.client(TOKEN.umaFew);
      await fails(
        few,
        'list_slots',
        { event_type_id: ET.weekly, ...MONDAY },
        {
          code: 'insufficient_scope',
          message: 'This token lacks the scope slots:read.',
          details: { required_scope: 'slots:read' },
        },
      );
    });
  });

  describe('check_slot', () => {
    it("answers a free start as { available, duration_minutes }, equal to core's check", async () => {
      const query = { event_type_id: ET.weekly, start: '2026-03-02T10:00:00Z' };
      const check = await ok(uma, 'check_slot', query);
      expect(check).toEqual({ available: true, duration_minutes: 30 });
      expect(check).toEqual(await viaCore(suite, TOKEN.uma, 'check_slot', { query }));
    });

    it('answers a booked start as slot_busy with next_available', async () => {
      const query = { event_type_id: ET.weekly, start: '2026-03-03T10:00:00Z' };
      const check = await ok(uma, 'check_slot', query);
      expect(check).toEqual({ available: false, reason: 'slot_busy', next_available: '2026-03-03T10:30:00.000Z' });
      expect(check).toEqual(await viaCore(suite, TOKEN.uma, 'check_slot', { query }));
    });

    it('answers a missing start with invalid_query_param naming start', async () => {
      await fails(
        uma,
        'check_slot',
        { event_type_id: ET.weekly },
        {
          code: 'invalid_query_param',
          message: 'start: is required.',
          details: { param: 'start' },
        },
      );
    });

    it('answers an end not after start with invalid_query_param naming end', async () => {
      await fails(
        uma,
        'check_slot',
        { event_type_id: ET.weekly, start: '2026-03-02T10:00:00Z', end: '2026-03-02T10:00:00Z' },
        {
          code: 'invalid_query_param',
          message: 'end must be after start.',
          details: { param: 'end' },
        },
      );
    });
  });
});
