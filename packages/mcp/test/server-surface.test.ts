import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { closeDeclaredObjects, operations } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputForClients } from '../src/client-json-schema.js';
import { API_TOOL_DOCS, DEFAULT_TOOLSETS, DIRECTORY_TOOL_DOCS, INSTRUCTIONS, parseToolsets, TOOLSETS_TOOL_DOC } from '../src/index.js';
import { TOKEN } from './support/mcp-workspace.js';
import { openSuite, type Suite } from './support/tool-calls.js';

// What a client sees before calling anything: tools, resources, prompts and
// instructions (README.md "The MCP server", issue 5 parts 2 and 4).

const API_TOOLS = [
  'list_bookings',
  'get_booking',
  'create_booking',
  'cancel_booking',
  'reschedule_booking',
  'update_booking',
  'list_series',
  'get_series',
  'create_series',
  'preview_series',
  'pause_series',
  'resume_series',
  'end_series',
  'change_series_host',
  'update_series',
  'list_slots',
  'check_slot',
  'list_webhooks',
  'get_webhook',
  'create_webhook',
  'update_webhook',
  'delete_webhook',
  'rotate_webhook_secret',
  'list_webhook_deliveries',
  'redeliver_webhook_delivery',
  'test_webhook',
  'list_calendars',
  'get_calendar',
  'add_calendar',
  'remove_calendar',
  'test_calendar',
  'resync_calendar',
];
/** What a connection lists before it switches anything on (issue 36): booking, moving and canceling, and the toolsets tool. */
const BY_DEFAULT = ['find_times', 'book_time', 'list_bookings', 'reschedule_booking', 'cancel_booking', 'toolsets'];
/** Tools that ask the user first, or take confirm: true (said apart from confirm.ts, so that a tool left out fails here). */
const CONFIRMED = new Set([
  'cancel_booking',
  'decline_booking',
  'end_series',
  'delete_webhook',
  'delete_event_type',
  'delete_time_off',
  'remove_calendar',
  'revoke_token',
  'deactivate_person',
]);
/** The tools of a /:id endpoint, which take the webhook's id as `id` (and a delivery's as `delivery_id`). */
const WEBHOOK_ID_TOOLS = [
  'get_webhook',
  'update_webhook',
  'delete_webhook',
  'rotate_webhook_secret',
  'list_webhook_deliveries',
  'redeliver_webhook_delivery',
  'test_webhook',
];
const DIRECTORY_TOOLS = ['whoami', 'list_people', 'list_event_types'];
const READ_ONLY = new Set([
  'list_bookings',
  'get_booking',
  'list_series',
  'get_series',
  'preview_series',
  'list_slots',
  'check_slot',
  'list_webhooks',
  'get_webhook',
  'list_webhook_deliveries',
  'list_calendars',
  'get_calendar',
  'test_calendar',
  'get_event_type',
  ...DIRECTORY_TOOLS,
  'get_person',
  'list_tokens',
  'get_token',
  'list_time_off',
  'get_time_off',
  'get_availability',
]);
const DESTRUCTIVE = new Set([
  'cancel_booking',
  'decline_booking',
  'end_series',
  'delete_webhook',
  'remove_calendar',
  'revoke_token',
  'delete_event_type',
  'delete_time_off',
  'remove_availability_override',
  'release_hold',
]);
/**
 * Repeating a create without the same idempotency_key books again (tool-docs.ts, commit aedb34b); a
 * repeated rotation makes another secret, a repeated test or redelivery sends again.
 */
const NOT_IDEMPOTENT = new Set([
  'find_times',
  'book_time',
  'create_booking',
  'create_series',
  'create_webhook',
  'rotate_webhook_secret',
  'redeliver_webhook_delivery',
  'test_webhook',
  'add_calendar',
  'create_person',
  'create_token',
  'create_event_type',
  'create_time_off',
  'create_hold',
]);
/** A test or a redelivery POSTs to the webhook's URL, outside this service; adding or testing a CalDAV account reads its server (tool-docs.ts). */
const OPEN_WORLD = new Set(['redeliver_webhook_delivery', 'test_webhook', 'add_calendar', 'test_calendar']);
const UID_TOOLS = [
  'get_booking',
  'cancel_booking',
  'reschedule_booking',
  'update_booking',
  'get_series',
  'pause_series',
  'resume_series',
  'end_series',
  'change_series_host',
  'update_series',
];
/** docs/api/requests.md "Idempotency" plus docs/api/choices.md (optional on pause, host change, series PATCH). */
const TAKES_KEY = new Set([
  'find_times',
  'book_time',
  'create_booking',
  'cancel_booking',
  'confirm_booking',
  'decline_booking',
  'reassign_booking',
  'reschedule_booking',
  'update_booking',
  'create_series',
  'pause_series',
  'resume_series',
  'end_series',
  'change_series_host',
  'update_series',
  'create_webhook',
  'update_webhook',
  'delete_webhook',
  'rotate_webhook_secret',
  'redeliver_webhook_delivery',
  'test_webhook',
  'add_calendar',
  'remove_calendar',
  'resync_calendar',
  'create_person',
  'update_person',
  'deactivate_person',
  'reactivate_person',
  'create_token',
  'revoke_token',
  'create_event_type',
  'update_event_type',
  'delete_event_type',
  'create_time_off',
  'update_time_off',
  'delete_time_off',
  'replace_availability',
  'add_availability_override',
  'remove_availability_override',
  'create_hold',
  'release_hold',
  // Marking takes one as cancel does; clearing, as the other DELETEs, when sent.
  'mark_no_show',
  'clear_no_show',
]);

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  inputSchema: { type: string; properties?: Record<string, unknown>; required?: string[] };
  outputSchema?: { type: string; anyOf?: Record<string, unknown>[] };
}

describe('the server surface', () => {
  let suite: Suite;
  let client: Client;
  let tools: ListedTool[];
  /** Every toolset's tools, the self-service ones outside the default too: each operation's tool is checked. */
  let allTools: ListedTool[];
  const tool = (name: string) => {
    const found = allTools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };

  beforeAll(async () => {
    suite = await openSuite();
    // Every toolset, so that every operation's tool is checked here.
    client = await suite.client(TOKEN.olga, parseToolsets('all'));
    tools = (await client.listTools()).tools as ListedTool[];
    allTools = (await (await suite.client(TOKEN.olga, parseToolsets('all'))).listTools()).tools as ListedTool[];
  });
  afterAll(() => suite.world.close());

  it('lists find_times, book_time, list_bookings, reschedule_booking, cancel_booking and toolsets by default; every API tool with all', async () => {
    const byDefault = (await (await suite.client(TOKEN.olga, DEFAULT_TOOLSETS)).listTools()).tools.map((t) => t.name);
    expect(byDefault.sort()).toEqual([...BY_DEFAULT].sort());
    expect(tools.map((t) => t.name).sort()).toEqual([...operations.map((o) => o.name), 'toolsets'].sort());
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([...API_TOOLS, ...DIRECTORY_TOOLS]));
  });

  it('gives every tool a title and a non-empty description, as tool-docs declares them', () => {
    const docs: Record<string, { title: string; description: string }> = {
      ...API_TOOL_DOCS,
      ...DIRECTORY_TOOL_DOCS,
      toolsets: TOOLSETS_TOOL_DOC,
    };
    for (const t of tools) {
      expect({ name: t.name, title: t.title, description: t.description }).toEqual({
        name: t.name,
        title: docs[t.name]?.title,
        description: docs[t.name]?.description,
      });
      expect(t.title?.length, t.name).toBeGreaterThan(0);
      expect(t.description?.length, t.name).toBeGreaterThan(20);
    }
  });

  it('hints read-only on list/get/check/preview/directory tools and test_calendar, destructive only on cancel_booking, end_series, delete_webhook and remove_calendar, idempotent except the creates, rotations and sends, closed world but for the sends', () => {
    // The spec gives destructiveHint and idempotentHint meaning only beside readOnlyHint false, and the title is the tool's own (issue 11 budget).
    for (const t of tools) {
      expect({ name: t.name, annotations: t.annotations }).toEqual({
        name: t.name,
        annotations: READ_ONLY.has(t.name)
          ? { readOnlyHint: true, openWorldHint: OPEN_WORLD.has(t.name) }
          : {
              readOnlyHint: false,
              destructiveHint: DESTRUCTIVE.has(t.name),
              idempotentHint: !NOT_IDEMPOTENT.has(t.name),
              openWorldHint: OPEN_WORLD.has(t.name),
            },
      });
    }
  });

  it('requires uid on every tool of a /:uid endpoint, and id on every tool of a /webhooks/:id one', () => {
    for (const name of API_TOOLS) {
      const required = tool(name).inputSchema.required ?? [];
      expect({ name, requiresUid: required.includes('uid'), requiresId: required.includes('id') }).toEqual({
        name,
        requiresUid: UID_TOOLS.includes(name),
        requiresId: WEBHOOK_ID_TOOLS.includes(name),
      });
    }
    expect(tool('redeliver_webhook_delivery').inputSchema.required).toEqual(['id', 'delivery_id']);
  });

  it('requires if_match on update_booking, update_series and update_webhook, and offers it optionally on resume_series only', () => {
    for (const name of API_TOOLS) {
      const input = tool(name).inputSchema;
      expect({ name, offered: 'if_match' in (input.properties ?? {}), required: input.required?.includes('if_match') ?? false }).toEqual({
        name,
        offered: ['update_booking', 'update_series', 'update_webhook', 'resume_series'].includes(name),
        required: ['update_booking', 'update_series', 'update_webhook'].includes(name),
      });
    }
  });

  it('says on every tool whose id it takes: a webhook, an event type, a time-off range or a hold', () => {
    const described = tools
      .filter((t) => t.inputSchema.properties?.id !== undefined)
      .map((t) => [t.name, (t.inputSchema.properties!.id as { description: string }).description]);
    for (const [name, description] of described) {
      expect({ name, description }).toEqual({
        name,
        description: name!.includes('event_type')
          ? "The event type's id."
          : name!.includes('time_off')
            ? "The time-off range's id."
            : name!.includes('hold')
              ? "The hold's id (create_hold)."
              : "The webhook's id.",
      });
    }
    expect(described.length).toBeGreaterThanOrEqual(7 + 3 + 3);
  });

  it('offers idempotency_key exactly on tools whose endpoint takes an Idempotency-Key, never as required', () => {
    for (const t of tools) {
      expect({ name: t.name, offered: 'idempotency_key' in (t.inputSchema.properties ?? {}) }).toEqual({
        name: t.name,
        offered: TAKES_KEY.has(t.name),
      });
      expect(t.inputSchema.required ?? []).not.toContain('idempotency_key');
    }
  });

  it("derives each API tool's arguments from core's zod schema: the same property names, plus uid, idempotency_key and if_match", () => {
    for (const operation of operations) {
      const expected = [
        ...operation.schemas.params,
        ...Object.keys(operation.schemas.input?.shape ?? {}),
        ...(operation.idempotencyKey === 'none' ? [] : ['idempotency_key']),
        ...(operation.ifMatch === 'none' ? [] : ['if_match']),
        ...(CONFIRMED.has(operation.name) ? ['confirm'] : []),
      ].sort();
      expect({ name: operation.name, properties: Object.keys(tool(operation.name).inputSchema.properties ?? {}).sort() }).toEqual({
        name: operation.name,
        properties: expected,
      });
    }
  });

  it("gives each body or query property the JSON Schema zod derives from core's schema (as clients are shown it), and core's required list", () => {
    for (const operation of operations) {
      const input = operation.schemas.input;
      if (!input) continue;
      const derived = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as {
        properties: Record<string, Record<string, unknown>>;
        required?: string[];
      };
      const listed = tool(operation.name).inputSchema;
      for (const [name, schema] of Object.entries(derived.properties)) {
        expect({ tool: operation.name, name, schema: listed.properties?.[name] }).toEqual({
          tool: operation.name,
          name,
          schema: inputForClients(closeDeclaredObjects(schema)),
        });
      }
      expect({ tool: operation.name, required: [...(listed.required ?? [])].sort() }).toEqual({
        tool: operation.name,
        required: [
          ...operation.schemas.params,
          ...(derived.required ?? []),
          ...(operation.ifMatch === 'required' ? ['if_match'] : []),
        ].sort(),
      });
    }
  });

  it('declares every input and output schema as a JSON object schema; outputs are the success shape or the error shape', () => {
    for (const t of tools) {
      expect({ name: t.name, input: t.inputSchema.type, output: t.outputSchema?.type }).toEqual({
        name: t.name,
        input: 'object',
        output: 'object',
      });
      expect({ name: t.name, branches: t.outputSchema?.anyOf?.length }).toEqual({ name: t.name, branches: 2 });
    }
  });

  it('declares output schemas that constrain: an empty object and a success missing a field fail, the error shape passes', () => {
    // The SDK client checks results with these (after listTools); a schema that accepted anything would check nothing.
    // The error branch only tells a failure from a success: listing every error code in each tool cost ~14 KB (issue 11).
    const ajv = new AjvJsonSchemaValidator();
    for (const t of tools) {
      const validate = ajv.getValidator(t.outputSchema as Record<string, unknown>);
      const success = t.outputSchema?.anyOf?.[0] as { required?: string[] };
      const firstRequired = success.required?.[0];
      expect({
        name: t.name,
        empty: validate({}).valid,
        error: validate({ error: { code: 'booking_not_found', message: 'No booking with this uid.', details: {} } }).valid,
        notAnObject: validate([]).valid,
      }).toEqual({ name: t.name, empty: false, error: true, notAnObject: false });
      if (firstRequired)
        expect({ name: t.name, missing: validate({ [`not_${firstRequired}`]: 1 }).valid }).toEqual({ name: t.name, missing: false });
    }
  });

  it("names every field of core's output schema in a tool's success branch, typed, one level deep", () => {
    for (const operation of operations) {
      const success = tool(operation.name).outputSchema?.anyOf?.[0] as Record<string, any>;
      const answer = (operation.schemas.list ? success.properties.data.items : success) as {
        required?: string[];
        properties?: Record<string, { type?: unknown; enum?: unknown; const?: unknown; anyOf?: unknown }>;
        additionalProperties?: unknown;
      };
      const item = z.toJSONSchema(operation.schemas.output, { io: 'output', unrepresentable: 'any' }) as {
        properties: Record<string, unknown>;
        required?: string[];
      };
      const named = new Set([...(answer.required ?? []), ...Object.keys(answer.properties ?? {})]);
      expect({ name: operation.name, named: [...named].sort() }).toEqual({
        name: operation.name,
        named: Object.keys(item.properties).sort(),
      });
      expect({ name: operation.name, required: answer.required ?? [] }).toEqual({ name: operation.name, required: item.required ?? [] });
      // A field named only in `required` is a plain string: additionalProperties types it.
      const untyped = (answer.required ?? []).filter((field) => !(field in (answer.properties ?? {})));
      if (untyped.length > 0)
        expect({ name: operation.name, rest: answer.additionalProperties }).toEqual({ name: operation.name, rest: { type: 'string' } });
      for (const [field, schema] of Object.entries(answer.properties ?? {})) {
        expect({ name: operation.name, field, typed: ['type', 'enum', 'const', 'anyOf'].some((k) => k in schema) }).toEqual({
          name: operation.name,
          field,
          typed: true,
        });
      }
      if (operation.schemas.list) expect(success.required).toEqual(['data', 'next_cursor', 'has_more']);
    }
  });

  it('tells a connecting model how to start, book, page and retry (server instructions)', () => {
    const instructions = client.getInstructions();
    expect(instructions).toBe(INSTRUCTIONS);
    for (const word of ['find_times', 'book_time', 'toolsets', 'confirm: true', 'idempotency_key', 'if_match', 'next_cursor']) {
      expect(instructions).toContain(word);
    }
  });

  it('lists the three directory resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => ({ uri: r.uri, mimeType: r.mimeType })).sort((a, b) => a.uri.localeCompare(b.uri))).toEqual([
      { uri: 'schedule://event-types', mimeType: 'application/json' },
      { uri: 'schedule://me', mimeType: 'application/json' },
      { uri: 'schedule://people', mimeType: 'application/json' },
    ]);
  });

  it('lists the prompts book_meeting and set_up_series, each needing attendee_email', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['book_meeting', 'set_up_series']);
    for (const p of prompts) expect(p.arguments?.find((a) => a.name === 'attendee_email')?.required).toBe(true);
  });

  it('book_meeting walks through find_times and book_time for the attendee, times as the tools write them', async () => {
    const prompt = await client.getPrompt({ name: 'book_meeting', arguments: { attendee_email: 'bob@example.com', attendee_name: 'Bob' } });
    expect(prompt.messages).toHaveLength(1);
    const message = prompt.messages[0]!;
    expect(message.role).toBe('user');
    const text = message.content.type === 'text' ? message.content.text : '';
    expect(text.startsWith('Book a meeting with Bob <bob@example.com>.')).toBe(true);
    for (const toolName of ['find_times', 'book_time', 'option_id', 'attendee_timezone', 'idempotency_key']) {
      expect(text).toContain(toolName);
    }
  });

  it('set_up_series walks through list_people, list_event_types and create_series and says skipped dates are not moved', async () => {
    const prompt = await client.getPrompt({
      name: 'set_up_series',
      arguments: { attendee_email: 'bob@example.com', pattern: 'every Monday at 10', count: '6' },
    });
    const message = prompt.messages[0]!;
    const text = message.content.type === 'text' ? message.content.text : '';
    expect(text.startsWith('Set up a recurring series with bob@example.com: every Monday at 10, 6 times.')).toBe(true);
    for (const toolName of ['list_people', 'list_event_types', 'create_series', 'pause_series', 'resume_series', 'end_series']) {
      expect(text).toContain(toolName);
    }
    expect(text).toContain('NOT moved');
    // Every tool a prompt names exists.
    const named = text.match(/\b[a-z]+_[a-z_]+\b/g) ?? [];
    const toolNames = new Set(tools.map((t) => t.name));
    for (const n of named.filter((w) => /^(list|get|create|cancel|reschedule|update|pause|resume|end|change|check)_/.test(w))) {
      expect(toolNames.has(n), n).toBe(true);
    }
  });
});
