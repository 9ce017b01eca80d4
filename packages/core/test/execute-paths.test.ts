import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import { defineOperation, type Operation, type RawCall } from '../src/operations/operation.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { scheduleErrorOf } from './support/errors.js';
import { loadOrganization, principalOf, SECRET } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// execute's paths that no real operation takes alone, through operations made
// for the test: a read never reserves a key, a write that answers without
// writing is remembered all the same, and a PATCH judges its own top-level
// keys (validation/parse-body.ts parsePatch) while execute still refuses
// unknown nested ones.

const T0 = '2026-02-01T12:00:00.000Z';
const schemas = { params: [], input: z.object({ name: z.string().optional() }), output: z.unknown(), list: false };

describe.each(storeFixtures())('execute paths on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let alice: Principal;
  let runs: number;

  beforeEach(async () => {
    store = await fixture.open();
    const clock = manualClock(T0);
    deps = testDeps(store, clock);
    await loadOrganization({ store, clock });
    alice = await principalOf({ store, clock }, SECRET.aliceAll);
    runs = 0;
  });
  afterAll(() => fixture.cleanup());

  const call = (operation: Operation, body: unknown, idempotencyKey: string | undefined, requestId: string) =>
    execute(deps, operation, alice, { params: {}, query: {}, body, idempotencyKey } satisfies RawCall, requestId);

  /** An operation of `method` whose run answers a count of its runs, writing nothing. */
  const counting = (method: 'GET' | 'POST' | 'PATCH', idempotencyKey: 'none' | 'optional') =>
    defineOperation({
      name: `count_${method.toLowerCase()}`,
      method,
      path: '/v1/test-count',
      scope: null,
      idempotencyKey,
      ifMatch: 'none',
      errors: [],
      schemas,
      parse: (raw) => raw.body,
      run: async () => ({ status: 200, data: { runs: ++runs } }),
    });

  it('never reserves a key for a read: the same key twice runs twice, and nothing is stored', async () => {
    const read = counting('GET', 'none');
    expect(await call(read, undefined, 'key-1', 'req-1')).toEqual({
      outcome: { status: 200, data: { runs: 1 } },
      requestId: 'req-1',
      replayed: false,
    });
    expect(await call(read, undefined, 'key-1', 'req-2')).toEqual({
      outcome: { status: 200, data: { runs: 2 } },
      requestId: 'req-2',
      replayed: false,
    });
    expect(await store.db.selectFrom('idempotency_keys').select('key').execute()).toEqual([]);
  });

  it('never judges a body for a read: its input is its query, and a body it was handed is ignored', async () => {
    expect((await call(counting('GET', 'none'), { nmae: 'x' }, undefined, 'req-1')).outcome).toEqual({ status: 200, data: { runs: 1 } });
  });

  it('remembers a write that answered without writing: the same key replays the first answer and does not run again', async () => {
    const write = counting('POST', 'optional');
    const first = await call(write, { name: 'a' }, 'key-1', 'req-1');
    expect(first).toEqual({ outcome: { status: 200, data: { runs: 1 } }, requestId: 'req-1', replayed: false });
    const again = await call(write, { name: 'a' }, 'key-1', 'req-2');
    expect(again).toMatchObject({ outcome: { status: 200, data: { runs: 1 } }, requestId: 'req-1', replayed: true });
    expect(runs).toBe(1);
  });

  it('refuses a call without a path parameter or a required If-Match the operation declares, before its parse runs', async () => {
    const declaring = defineOperation({
      ...counting('PATCH', 'optional'),
      name: 'count_declaring',
      ifMatch: 'required',
      schemas: { ...schemas, params: ['id'] },
    });
    const noIfMatch = await scheduleErrorOf(
      execute(deps, declaring, alice, { params: { id: 'x' }, query: {}, body: {}, idempotencyKey: undefined }, 'req-1'),
    );
    expect(noIfMatch.code).toBe('missing_if_match');
    const noParam = await scheduleErrorOf(execute(deps, declaring, alice, { params: {}, query: {}, body: {}, ifMatch: '"1"' }, 'req-2'));
    expect(noParam).toMatchObject({ code: 'validation_error', message: 'id: is required.', details: { fields: ['id'] } });
    expect(runs).toBe(0);
  });

  it('leaves a PATCH’s unknown top-level keys to the operation, which names them its own way', async () => {
    const patch = counting('PATCH', 'optional');
    expect((await call(patch, { nmae: 'x' }, undefined, 'req-1')).outcome).toEqual({ status: 200, data: { runs: 1 } });
  });
});
