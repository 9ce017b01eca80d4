import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, DEFAULT_TOOLSETS, parseToolsets, TOOLSETS, type ToolsetName } from '../src/index.js';
import { ET, TOKEN } from './support/mcp-workspace.js';
import { call, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// Issue 11 item 6: what the server costs a model's context, measured as the
// bytes of JSON that cross the wire. Before issue 11: tools/list 73,970
// bytes; list_slots text 6,823 (7 days) and 31,879 (31 days), the
// structured content as JSON. Issue 16 added the nine webhook tools, about
// 13.5 KB at the same cost per tool as the others (1.6 KB), so the whole
// list's budget grew from 32 KB to 48 KB. Issue 17 added the five calendar
// account tools: 51,486 bytes in all with them, about 1.2 KB a tool (below
// the others' cost), so the budget grew to 56 KB. Issue 29 added
// preview_series within it (54,358 bytes with it). Issue 30 added
// resync_calendar within it: 54,523 bytes before, 55,505 with it.
// Its item 11 added two webhook event names (booking.host_changed,
// booking.location_changed), which the webhook tools list: 55,905 bytes.
// Toolsets (toolsets.ts) let a connection take less: booking alone is
// 20,474 bytes; series adds 14,685, webhooks 14,003, calendars 6,743.
// Issue 32 added ten webhook event names (57,594 bytes with them, over the
// budget): an output now states a long enum as its type (the values are the
// input's, client-json-schema.ts), and the default is 54,762 bytes
// (booking 20,279, webhooks 13,055). Its self-service toolsets are outside
// the default: event_types adds 12,215, availability 12,896, people 10,914.
// Issue 32 item 1 added three webhook event names (event_type.created,
// .updated, .deleted), which the webhook tools list: webhooks 14,507, the
// default 56,514 bytes. Its event_types toolset, outside the default, is 12,215.
// Issue 34 part 2 (requires confirmation) added the statuses pending and
// declined, which every booking tool's output lists, and three webhook event
// names (booking.requested, .confirmed, .declined): the default went from
// 54,817 to 55,101 bytes (booking alone 20,500). Its two tools,
// confirm_booking and decline_booking, are in the approvals toolset outside
// the default, which adds 3,679.
// Issue 34 parts 3 and 4 (measured apart from part 2, from 54,817 bytes): override_notice on cancel and
// reschedule, the two notice fields in list_event_types' output and two
// webhook event names (booking.no_show, .no_show_cleared) make the default
// 55,253 (booking 20,682); mark_no_show and clear_no_show are in the new
// approvals toolset, outside the default, which adds 3,644.
// With all of issue 34 (holds' hold_id on create_booking, limits, seats and
// the notice and confirmation fields, five booking event names): the default
// is 55,636 bytes (booking alone 20,947); approvals (four tools) adds 7,365,
// holds (create_hold, release_hold) 2,095, all outside the default.
// Issue 35 (host_user_id on create_booking; scheduling and hosts on event
// types): the default is 55,762 bytes (booking alone 21,073); event_types
// 18,727; teams (reassign_booking) 2,045, outside the default.
// Collective types and fixed hosts (a booking's `hosts`, a pool host's
// `fixed`): the default is 55,960 bytes (booking alone 21,271); event_types
// 19,421; teams 2,078.

const KB = 1024;
const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));

/** uma's weekly type over the working week from Monday 2026-03-02 (three Tuesday-to-Thursday 10:00 slots are booked). */
const WEEK = { event_type_id: ET.weekly, start: '2026-03-02T00:00:00Z', end: '2026-03-09T00:00:00Z' };
const MONTH = { event_type_id: ET.weekly, start: '2026-03-02T00:00:00Z', end: '2026-04-02T00:00:00Z' };

describe("budgets for a model's context", () => {
  let suite: Suite;
  let uma: Client;

  beforeAll(async () => {
    suite = await openSuite();
    uma = await suite.client(TOKEN.uma);
  });
  afterAll(() => suite.world.close());

  /** The `result` of a tools/list exactly as the server sent it (the SDK client's parse could drop keys). */
  async function toolsListOnTheWire(toolsets?: readonly ToolsetName[]): Promise<unknown> {
    const principal = await suite.principal(TOKEN.uma);
    const server = buildServer(suite.world.deps, { principal: async () => principal, address: 'in-memory' }, toolsets);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'budget', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const seen: JSONRPCMessage[] = [];
    const deliver = clientSide.onmessage;
    clientSide.onmessage = (message, extra) => {
      seen.push(message);
      deliver?.(message, extra);
    };
    await client.listTools();
    await client.close();
    const answer = seen.find((m) => 'result' in m && 'tools' in (m.result as object));
    if (!answer || !('result' in answer)) throw new Error('no tools/list answer seen');
    return answer.result;
  }

  it('keeps the whole tools/list result within 56 KB of JSON', async () => {
    const listed = await toolsListOnTheWire();
    expect((listed as { tools: unknown[] }).tools).toHaveLength(35);
    expect(bytes(listed)).toBeLessThanOrEqual(56 * KB);
  });

  it('costs a connection only the toolsets it asks for: booking alone, plus each other toolset its own tools, add up to all of them', async () => {
    const booking = bytes(await toolsListOnTheWire(parseToolsets('')));
    let whole = booking;
    for (const name of Object.keys(TOOLSETS).filter((toolset) => toolset !== 'booking')) {
      whole += bytes(await toolsListOnTheWire(parseToolsets(name))) - booking;
    }
    expect(whole).toBe(bytes(await toolsListOnTheWire(parseToolsets('all'))));
  });

  it('gives a connection that names no toolsets the four that existed before toolsets, never the self-service ones', async () => {
    expect(DEFAULT_TOOLSETS).toEqual(['booking', 'series', 'webhooks', 'calendars']);
    expect(bytes(await toolsListOnTheWire())).toBe(bytes(await toolsListOnTheWire(parseToolsets('booking,series,webhooks,calendars'))));
  });

  it('answers list_slots over a typical week with at most 4 KB of text, one line per day with a free slot', async () => {
    const result = await call(uma, 'list_slots', WEEK);
    const text = result.content[0]?.text ?? '';
    expect(bytes(text)).toBeLessThanOrEqual(4 * KB);
    const lines = text.split('\n');
    expect(lines.slice(1).map((line) => line.slice(0, line.indexOf(':')))).toEqual([
      'Mon 2026-03-02 (UTC)',
      'Tue 2026-03-03 (UTC)',
      'Wed 2026-03-04 (UTC)',
      'Thu 2026-03-05 (UTC)',
      'Fri 2026-03-06 (UTC)',
    ]);
    expect(lines[2]).toBe(
      'Tue 2026-03-03 (UTC): 09:00 09:30 10:30 11:00 11:30 12:00 12:30 13:00 13:30 14:00 14:30 15:00 15:30 16:00 16:30',
    );
    // The structured content stays the API's data.
    expect(result.structuredContent).toEqual(await viaCore(suite, TOKEN.uma, 'list_slots', { query: WEEK }));
  });

  it('keeps a 31-day list_slots text within 4 KB too, one line per working day', async () => {
    const result = await call(uma, 'list_slots', MONTH);
    const text = result.content[0]?.text ?? '';
    expect(bytes(text)).toBeLessThanOrEqual(4 * KB);
    expect(text.split('\n')).toHaveLength(1 + 23);
    // The API's data for the same window is about eight times the text.
    expect(bytes(result.structuredContent)).toBeGreaterThan(7 * bytes(text));
  });
});
