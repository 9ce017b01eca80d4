import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../src/auth/principal.js';
import { SCOPES } from '../src/auth/scopes.js';
import { manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import { operations } from '../src/operations/registry.js';
import type { Store } from '../src/storage/store.js';
import { closeDeclaredObjects, type JsonSchema, refuseUnknownFields, unknownFieldsOf } from '../src/validation/unknown-fields.js';
import { loadWorkspace } from '../src/workspace/load-workspace.js';
import { parseWorkspace } from '../src/workspace/parse-workspace.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// Issue 29 item 12: a write refuses a body field it does not take, at any
// depth, naming it and the field meant, where HTTP creates used to drop it
// (`"nmae"` made the attendee's name their email). Checked for every write
// of the registry, so an operation added later is held to it too.

const SECRET = 'pat_unknown_fields_all_scopes';
const UID = '30000000-0000-4000-8000-00000000000a';

/** What a PATCH answers for a key it cannot change (docs/api/errors.md): its own code. */
const PATCH_REFUSALS: Record<string, string> = {
  update_booking: 'field_immutable',
  update_series: 'invalid_change',
  update_person: 'field_immutable',
  update_webhook: 'validation_error',
};

const writes = operations.filter((operation) => operation.method !== 'GET');

describe('unknown body fields', () => {
  const [sqlite] = storeFixtures();
  const clock = manualClock('2026-03-02T08:00:00.000Z');
  let store: Store;
  let deps: ExecuteDeps;
  let principal: Principal;

  beforeAll(async () => {
    store = await sqlite!.open();
    deps = testDeps(store, clock);
    const workspace = {
      users: [{ username: 'ann', email: 'ann@example.test', role: 'owner' }],
      tokens: [{ name: 'all', user: 'ann', secret: SECRET, scopes: [...SCOPES] }],
    };
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(workspace)));
    principal = await principalOf({ store, clock }, SECRET);
  });
  afterAll(() => sqlite!.cleanup());

  /** Calls `operation` with `body`, every path parameter set, a key and a version. */
  const send = (name: string, body: unknown) => {
    const operation = operations.find((o) => o.name === name)!;
    const params = Object.fromEntries(operation.schemas.params.map((param) => [param, UID]));
    return scheduleErrorOf(execute(deps, operation, principal, { params, query: {}, body, idempotencyKey: 'k', ifMatch: '1' }, 'req'));
  };

  it.each(writes.map((operation) => [operation.name]))('%s refuses a body field it does not take, naming it', async (name) => {
    const refusal = await send(name, { zz_unknown: 1 });
    expect({ code: refusal.code, details: refusal.details }).toEqual({
      code: PATCH_REFUSALS[name] ?? 'validation_error',
      details: { fields: ['zz_unknown'] },
    });
  });

  it('names a misspelled attendee field by its path and the field meant, before any value is judged', async () => {
    expect(await send('create_booking', { start: 'soon', attendee: { email: 'bob@example.com', nmae: 'Bob' } })).toEqual({
      code: 'validation_error',
      message: 'Unknown field: attendee.nmae. Did you mean attendee.name (not attendee.nmae)?',
      details: { fields: ['attendee.nmae'] },
      retryAfterSeconds: undefined,
    });
  });

  it('names every unknown field at once: a guest’s, a series attendee’s, and one nothing is close to, with what its object takes', async () => {
    const booking = {
      start: '2026-03-02T10:00:00Z',
      attendee: { email: 'bob@example.com' },
      guests: [{ email: 'c@example.com', nmae: 'C' }],
    };
    expect(await send('create_booking', { ...booking, colour: 'blue' })).toEqual({
      code: 'validation_error',
      message:
        'Unknown fields: guests.0.nmae, colour. Did you mean guests.0.name (not guests.0.nmae)? This operation takes event_type_id, username, event_slug, start, hold_id, host_user_id, timezone, attendee, guests, responses, metadata, utm_source, utm_medium, utm_campaign.',
      details: { fields: ['guests.0.nmae', 'colour'] },
      retryAfterSeconds: undefined,
    });
    expect(await send('create_series', { attendee: { email: 'bob@example.com', timezone: 'UTC' } })).toEqual({
      code: 'validation_error',
      message: 'Unknown field: attendee.timezone. attendee takes email, name, first_name, last_name, phone.',
      details: { fields: ['attendee.timezone'] },
      retryAfterSeconds: undefined,
    });
  });

  it('takes any key inside a free-form object (metadata, responses), and none in the body of a bodiless action', async () => {
    const booking = { start: 'soon', attendee: { email: 'bob@example.com' }, metadata: { crm: { id: 1 } }, responses: { anything: 'x' } };
    expect((await send('create_booking', booking)).details).toEqual({ fields: ['start'] });
    expect(await send('pause_series', { reason: 'holiday' })).toEqual({
      code: 'validation_error',
      message: 'Unknown field: reason. This operation takes no body fields.',
      details: { fields: ['reason'] },
      retryAfterSeconds: undefined,
    });
    expect(await send('pause_series', [1])).toEqual({
      code: 'validation_error',
      message: 'The body must be a JSON object.',
      details: { fields: [] },
      retryAfterSeconds: undefined,
    });
  });

  it('answers a misspelled PATCH key with the PATCH’s own code, and the field meant', async () => {
    expect(await send('update_booking', { metdata: { a: 1 } })).toEqual({
      code: 'field_immutable',
      message:
        'These fields cannot be patched: metdata. Change start by reschedule and end a booking by cancel. Did you mean metadata (not metdata)?',
      details: { fields: ['metdata'] },
      retryAfterSeconds: undefined,
    });
    expect((await send('update_series', { weekday: ['mon'] })).message).toBe(
      'These fields cannot be changed this way: weekday. Only frequency, interval_weeks, weekdays, time, location_url, notify_invitee can be patched, and location_url cannot be cleared. Did you mean weekdays (not weekday)?',
    );
    expect((await send('update_webhook', { event: ['booking.created'] })).message).toBe(
      'These fields cannot be patched: event. Send any of url, events, description, status. Did you mean events (not event)?',
    );
  });
});

describe('unknownFieldsOf a closed JSON Schema', () => {
  // Built in each test, not once for the file: mutation testing must see it built by the tests.
  const schemaOf = () =>
    closeDeclaredObjects({
      type: 'object',
      properties: {
        a: { type: 'object', properties: { b: { type: 'string' } } },
        free: { type: 'object', additionalProperties: {} },
        list: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object', properties: { c: { type: 'string' } } }] } },
        maybe: { anyOf: [{ type: 'object', properties: { d: { type: 'string' } } }, { type: 'null' }] },
        byKey: { type: 'object', additionalProperties: { type: 'object', properties: { x: { type: 'string' } } } },
      },
    });
  const pathsOf = (schema: JsonSchema, value: unknown) => unknownFieldsOf(schema, value).map((field) => field.path);

  it('closes every object that lists its properties, and leaves a free-form one open', () => {
    const schema = schemaOf();
    const properties = schema.properties as Record<string, JsonSchema>;
    expect(schema.additionalProperties).toBe(false);
    expect(properties.a?.additionalProperties).toBe(false);
    expect(properties.free?.additionalProperties).toEqual({});
    expect((properties.byKey?.additionalProperties as JsonSchema | undefined)?.additionalProperties).toBe(false);
  });

  it('closes objects inside items, unions, intersections, tuples and $defs, and changes nothing else', () => {
    const object = { type: 'object', properties: { x: { type: 'string' } } };
    const closed = { ...object, additionalProperties: false };
    expect(
      closeDeclaredObjects({
        items: object,
        anyOf: [object, true],
        oneOf: [object],
        allOf: [object],
        prefixItems: [object],
        $defs: { A: object },
        loose: { type: 'object', properties: {}, additionalProperties: {} },
        default: object,
        examples: [object],
        properties: { t: { type: 'string' }, yes: true, none: null },
      }),
    ).toEqual({
      items: closed,
      anyOf: [closed, true],
      oneOf: [closed],
      allOf: [closed],
      prefixItems: [closed],
      $defs: { A: closed },
      loose: { type: 'object', properties: {}, additionalProperties: {} },
      default: object,
      examples: [object],
      properties: { t: { type: 'string' }, yes: true, none: null },
      additionalProperties: false,
    });
    expect(closeDeclaredObjects({ type: 'string', items: 'x', anyOf: 'x', properties: 'x' })).toEqual({
      type: 'string',
      items: 'x',
      anyOf: 'x',
      properties: 'x',
    });
    expect(closeDeclaredObjects({ type: 'object', properties: {}, additionalProperties: { type: 'string' } }).additionalProperties).toEqual(
      {
        type: 'string',
      },
    );
  });

  it('finds unknown fields through objects, arrays, unions, nullables and a record’s values, and none in a free-form object', () => {
    const value = {
      a: { b: [{ z: 'not text, and no fields to judge' }], e: 1 },
      free: { any: { thing: 1 }, list: [1] },
      list: ['s', { c: 'x', f: 1 }],
      maybe: { g: 1 },
      byKey: { k: { x: 'x', y: 1 } },
      h: null,
    };
    expect(pathsOf(schemaOf(), value)).toEqual(['a.e', 'list.1.f', 'maybe.g', 'byKey.k.y', 'h']);
    expect(pathsOf(schemaOf(), { maybe: null, list: 'not a list', a: 'not an object', byKey: [] })).toEqual([]);
  });

  it('says where each unknown field is and what its object takes', () => {
    expect(unknownFieldsOf(schemaOf(), { a: { e: 1 }, z: 1 })).toEqual([
      { path: 'a.e', parent: 'a', name: 'e', known: ['b'] },
      { path: 'z', parent: '', name: 'z', known: ['a', 'free', 'list', 'maybe', 'byKey'] },
    ]);
  });

  it('takes a key any branch of a union takes, and any key where one branch is open', () => {
    const union = (second: JsonSchema) =>
      closeDeclaredObjects({ anyOf: [{ type: 'object', properties: { a: {} } }, second] }) as JsonSchema;
    expect(pathsOf(union({ type: 'object', properties: { b: {} } }), { a: 1, b: 2, c: 3 })).toEqual(['c']);
    expect(pathsOf(union({ type: 'object', properties: { b: {} }, additionalProperties: true }), { c: 3 })).toEqual([]);
    expect(pathsOf({ type: 'object', properties: { a: {} }, additionalProperties: true }, { c: 3 })).toEqual([]);
    expect(pathsOf(closeDeclaredObjects({ oneOf: [{ type: 'object', properties: { a: {} } }] }), { c: 3 })).toEqual(['c']);
    expect(pathsOf(closeDeclaredObjects({ allOf: [{ type: 'object', properties: { a: {} } }] }), { c: 3 })).toEqual(['c']);
    expect(pathsOf(closeDeclaredObjects({ anyOf: [null, { type: 'object', properties: { a: {} } }] }), { c: 3 })).toEqual(['c']);
  });

  it('follows a $ref to the $defs of the document, and leaves any other reference unjudged', () => {
    const schema = closeDeclaredObjects({
      $defs: { A: { type: 'object', properties: { b: {} } } },
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/A' },
        elsewhere: { $ref: 'other.json#/$defs/A' },
        // As long as '#/$defs/', and ending in the same name: still not a name of this document's $defs.
        other: { $ref: '#/other/A' },
        missing: { $ref: '#/$defs/B' },
      },
    });
    expect(pathsOf(schema, { a: { b: 1, c: 2 }, elsewhere: { c: 2 }, other: { c: 2 }, missing: { c: 2 } })).toEqual(['a.c']);
    expect(pathsOf({ type: 'object', properties: { a: { $ref: '#/$defs/A' } } }, { a: { c: 2 } })).toEqual([]);
  });

  it('treats a key named like an object’s own property (__proto__, constructor) as the unknown field it is', () => {
    const value = JSON.parse('{"__proto__": 1, "constructor": 2}');
    expect(pathsOf(schemaOf(), value)).toEqual(['__proto__', 'constructor']);
  });
});

describe('refuseUnknownFields', () => {
  const schema = z.object({ name: z.string(), attendee: z.object({ email: z.string() }), notes: z.object({ text: z.string() }) });
  const refusal = (body: unknown, ownKeys = true) => scheduleErrorOf(() => refuseUnknownFields(schema, body, { ownKeys }));

  it('passes a body with no unknown field, or none at all', () => {
    expect(() => refuseUnknownFields(schema, undefined, { ownKeys: true })).not.toThrow();
    expect(() => refuseUnknownFields(schema, { name: 'x', attendee: { email: 'y' } }, { ownKeys: true })).not.toThrow();
  });

  it('suggests the field meant at the top as at depth, and says what each object takes where nothing is close', async () => {
    expect(await refusal({ nmae: 'x', attendee: { emial: 'y' } })).toMatchObject({
      message: 'Unknown fields: nmae, attendee.emial. Did you mean name (not nmae)? Did you mean attendee.email (not attendee.emial)?',
      details: { fields: ['nmae', 'attendee.emial'] },
    });
    expect((await refusal({ zz: 1, attendee: { yy: 2 }, notes: { xx: 3 } })).message).toBe(
      'Unknown fields: zz, attendee.yy, notes.xx. This operation takes name, attendee, notes. attendee takes email. notes takes text.',
    );
  });

  it('judges only the fields below the body’s own keys when those are the operation’s to answer (a PATCH)', async () => {
    expect(() => refuseUnknownFields(schema, { zz: 1 }, { ownKeys: false })).not.toThrow();
    expect((await refusal({ zz: 1, attendee: { yy: 2 } }, false)).details).toEqual({ fields: ['attendee.yy'] });
  });
});
