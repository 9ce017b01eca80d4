import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN } from './support/mcp-workspace.js';
import { lintTool } from './support/schema-lint.js';
import { openSuite, type Suite } from './support/tool-calls.js';

// Issue 11 items 4 and 5: what every schema in tools/list says, checked over
// all the tools at once so that a new tool or field is held to it too.

type Schema = Record<string, any>;
interface ListedTool {
  name: string;
  inputSchema: Schema;
  outputSchema: Schema;
}

/** Every schema inside `schema` (itself included), with where it is. */
function* subschemas(schema: Schema, at: string): Generator<[string, Schema]> {
  yield [at, schema];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
    yield* subschemas(property, `${at}.${name}`);
  if (schema.items && typeof schema.items === 'object') yield* subschemas(schema.items, `${at}[]`);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    yield* subschemas(schema.additionalProperties, `${at}{}`);
  for (const [i, branch] of ((schema.anyOf ?? []) as Schema[]).entries()) yield* subschemas(branch, `${at}|${i}`);
}

/** The input properties of a tool, nested ones included (attendee.email, guests[].email). */
function* inputProperties(schema: Schema, at: string): Generator<[string, Schema]> {
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    yield [`${at}${name}`, property];
    yield* inputProperties(property, `${at}${name}.`);
    if (property.items)
      for (const branch of [property.items, ...(property.items.anyOf ?? [])]) yield* inputProperties(branch, `${at}${name}[].`);
  }
}

describe('tool schema rules', () => {
  let suite: Suite;
  let client: Client;
  let tools: ListedTool[];
  const input = (tool: string) => tools.find((t) => t.name === tool)!.inputSchema;

  beforeAll(async () => {
    suite = await openSuite();
    client = await suite.client(TOKEN.olga);
    tools = (await client.listTools()).tools as unknown as ListedTool[];
  });
  afterAll(() => suite.world.close());

  it("passes the portability rules of the Inspector's strict check with no finding on any tool, input and output", () => {
    expect(tools.length).toBeGreaterThan(60);
    expect(tools.flatMap((t) => lintTool(t))).toEqual([]);
  });

  it('finds each planted unportable form: a type list, an array without items, a bare true, a $ref, a typeless branch, {}', () => {
    const planted = {
      name: 'planted',
      inputSchema: {
        type: 'object',
        properties: {
          a: { type: ['string', 'null'] },
          b: { type: 'array' },
          c: true,
          d: { $ref: '#/$defs/x' },
          e: { anyOf: [{ description: 'no type' }, { type: 'null' }] },
          f: {},
        },
      },
      outputSchema: { type: 'string' },
    };
    expect(lintTool(planted).map((f) => `${f.at} ${f.rule}`)).toEqual([
      'planted.in.a type-union',
      'planted.in.b array-items',
      'planted.in.c boolean-schema',
      'planted.in.d ref',
      'planted.in.e|0 branch-type',
      'planted.in.f anything',
      'planted.out root-object',
    ]);
  });

  it('says additionalProperties false on every input object with properties, the root included', () => {
    for (const t of tools) {
      expect({ tool: t.name, root: t.inputSchema.additionalProperties }).toEqual({ tool: t.name, root: false });
      for (const [at, schema] of subschemas(t.inputSchema, t.name)) {
        if (schema.properties) expect({ at, additional: schema.additionalProperties }).toEqual({ at, additional: false });
      }
    }
  });

  it('writes nullable as an anyOf with a null branch, never as a type list, and says no $schema', () => {
    for (const t of tools) {
      expect({ tool: t.name, input: '$schema' in t.inputSchema, output: '$schema' in t.outputSchema }).toEqual({
        tool: t.name,
        input: false,
        output: false,
      });
    }
    const page = tools.find((t) => t.name === 'list_bookings')!.outputSchema.anyOf[0];
    expect(page.properties.next_cursor).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(input('replace_availability').properties.timezone.anyOf[1]).toEqual({ type: 'null' });
  });

  it('describes every input property, nested ones too', () => {
    for (const t of tools) {
      for (const [name, property] of inputProperties(t.inputSchema, `${t.name}: `)) {
        expect({ name, described: typeof property.description === 'string' && property.description.length > 3 }).toEqual({
          name,
          described: true,
        });
      }
    }
  });

  it('says what a time must look like: instants are date-times that must carry Z or an offset, with an example', () => {
    for (const [tool, field] of [
      ['create_booking', 'start'],
      ['reschedule_booking', 'start'],
    ] as const) {
      const schema = input(tool).properties[field];
      expect({ tool, field, format: schema.format, example: schema.examples?.[0] }).toEqual({
        tool,
        field,
        format: 'date-time',
        example: '2026-12-09T11:00:00+01:00',
      });
      expect(schema.description).toMatch(/Z or an offset; zone-less is refused/);
    }
    for (const [tool, field] of [
      ['list_bookings', 'start_date'],
      ['list_bookings', 'end_date'],
      ['list_bookings', 'updated_since'],
      ['list_slots', 'start'],
      ['list_slots', 'end'],
      ['check_slot', 'start'],
      ['check_slot', 'end'],
    ] as const) {
      expect({ tool, field, description: input(tool).properties[field].description }).toEqual({
        tool,
        field,
        description: expect.stringMatching(/date-time with Z or an offset \(zone-less is refused\)/),
      });
    }
    expect(input('create_series').properties.starts_on).toMatchObject({ type: 'string', format: 'date' });
  });

  it('says timezone arguments are IANA zone names, with an example', () => {
    for (const t of tools) {
      for (const [name, property] of inputProperties(t.inputSchema, `${t.name}: `)) {
        if (!name.endsWith('timezone')) continue;
        const examples = property.examples ?? property.anyOf?.[0].examples;
        expect({ name, iana: /IANA/.test(property.description), example: examples }).toEqual({
          name,
          iana: true,
          example: ['Europe/Berlin'],
        });
      }
    }
  });

  it('gives emails and ids their formats', () => {
    expect(input('create_booking').properties.attendee.properties.email).toMatchObject({ type: 'string', format: 'email' });
    expect(input('create_booking').properties.event_type_id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(input('create_series').properties.host_user_id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(input('list_bookings').properties.host_user_id).toMatchObject({ type: 'string', format: 'uuid' });
    for (const t of tools)
      if (t.inputSchema.properties.uid) expect(t.inputSchema.properties.uid).toMatchObject({ type: 'string', format: 'uuid' });
  });

  it('lists the values of status, sort, frequency and weekdays', () => {
    expect(input('list_bookings').properties.status).toMatchObject({
      type: 'array',
      items: { enum: ['confirmed', 'pending', 'canceled', 'declined'] },
    });
    expect(input('list_series').properties.status).toMatchObject({ type: 'array', items: { enum: ['active', 'paused', 'ended'] } });
    expect(input('list_bookings').properties.sort).toMatchObject({
      enum: ['start_at_desc', 'start_at_asc', 'created_at_desc', 'updated_at_asc', 'updated_at_desc'],
      default: 'start_at_desc',
    });
    for (const tool of ['create_series', 'update_series']) {
      expect(input(tool).properties.frequency).toMatchObject({ enum: ['weekly', 'monthly_same_day'] });
      expect(input(tool).properties.weekdays).toMatchObject({
        type: 'array',
        items: { enum: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
      });
    }
  });

  it('gives limit as an integer from 1 to 100 with its default, and explains cursor and include_cancelled', () => {
    for (const [tool, pageSize] of [
      ['list_bookings', 20],
      ['list_series', 20],
      ['list_people', 100],
      ['list_event_types', 100],
    ] as const) {
      expect({ tool, limit: input(tool).properties.limit }).toEqual({
        tool,
        limit: { type: 'integer', minimum: 1, maximum: 100, default: pageSize, description: `Page size, 1 to 100; default ${pageSize}.` },
      });
      expect(input(tool).properties.cursor.description).toMatch(/next_cursor/);
    }
    expect(input('list_bookings').properties.include_cancelled).toMatchObject({
      type: 'boolean',
      description: expect.stringMatching(/canceled/),
    });
  });

  it('types the values of metadata and responses as JSON values, not as anything', () => {
    const jsonValue = {
      anyOf: [
        { type: 'string' },
        { type: 'number' },
        { type: 'boolean' },
        { type: 'null' },
        // An array of JSON values, its items said one level deep (an array without items is refused by strict clients).
        {
          type: 'array',
          items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }, { type: 'object' }] },
        },
        { type: 'object' },
      ],
    };
    for (const [tool, field] of [
      ['create_booking', 'metadata'],
      ['create_booking', 'responses'],
      ['update_booking', 'metadata'],
      ['update_booking', 'responses'],
    ] as const) {
      expect({ tool, field, values: input(tool).properties[field].additionalProperties }).toEqual({ tool, field, values: jsonValue });
    }
  });

  it('offers create_series the host by user id or by username, neither required alone', () => {
    const series = input('create_series');
    expect(Object.keys(series.properties)).toEqual(expect.arrayContaining(['host_user_id', 'host_username']));
    expect(series.required).not.toContain('host_user_id');
    expect(series.properties.host_username.description).toMatch(/username/);
  });
});
