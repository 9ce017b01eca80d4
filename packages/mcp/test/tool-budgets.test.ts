import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, DEFAULT_TOOLSETS, parseToolsets, TOOLSETS, type ToolsetName } from '../src/index.js';
import { ET, TOKEN } from './support/mcp-workspace.js';
import { call, openSuite, type Suite, viaCore } from './support/tool-calls.js';

// Issue 11 item 6: what the server costs a model's context, measured as the
// bytes of JSON that cross the wire. The whole tools/list was 73,970 bytes
// before issue 11 and grew with every issue after it, its budget raised from
// 32 KB to 56 KB as it did (55,960 bytes before issue 36, all of it spent by
// every connection).
//
// Issue 36 states the budgets this file holds, on the exact bytes on the
// wire: the default tools/list at most 16 KB, any single toolset at most
// 12 KB. Output schemas are whole again (every level, not one), nullable
// fields are anyOf branches (the Inspector's strict check), and the default
// is `booking` alone: find_times, book_time, list_bookings,
// reschedule_booking, cancel_booking and the toolsets tool. Every other
// toolset is a toolsets call away. Figures at issue 36: the default 15,900
// bytes; the largest toolsets approvals (10,757) and series (10,448); all of
// them together 143,733 (MCP_BUDGET_REPORT=1 prints them).

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
    const server = buildServer(
      suite.world.deps,
      { principal: async () => principal, address: 'in-memory' },
      { toolsets, scopes: principal.scopes },
    );
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

  it('keeps the default tools/list (booking and manage) within 16 KB on the wire', async () => {
    const listed = await toolsListOnTheWire(DEFAULT_TOOLSETS);
    expect((listed as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual([
      'book_time',
      'cancel_booking',
      'find_times',
      'list_bookings',
      'reschedule_booking',
      'toolsets',
    ]);
    expect(bytes(listed)).toBeLessThanOrEqual(16 * KB);
  });

  it('keeps every single toolset within 12 KB: the essentials each, and what any other adds to them; all add up to every tool', async () => {
    const essentials = bytes(await toolsListOnTheWire(parseToolsets('')));
    const sizes: Record<string, number> = {};
    // The essentials are two toolsets always on together: each is its tools, measured by what the other lacks.
    for (const [name, other] of [
      ['booking', 'manage'],
      ['manage', 'booking'],
    ] as const) {
      sizes[name] = essentials - bytes(await toolsListOnTheWire([other])) - 1;
    }
    let whole = essentials;
    for (const name of Object.keys(TOOLSETS).filter((toolset) => !DEFAULT_TOOLSETS.includes(toolset as ToolsetName))) {
      // A comma joins the first tool of the toolset to the essentials' in the list.
      sizes[name] = bytes(await toolsListOnTheWire(parseToolsets(name))) - essentials - 1;
      whole += sizes[name] + 1;
    }
    if (process.env.MCP_BUDGET_REPORT) process.stdout.write(`${JSON.stringify({ default: essentials, ...sizes, all: whole }, null, 1)}\n`);
    for (const [name, size] of Object.entries(sizes)) expect({ name, within: size <= 12 * KB }).toEqual({ name, within: true });
    expect(whole).toBe(bytes(await toolsListOnTheWire(parseToolsets('all'))));
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
