import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { Store } from '../src/storage/store.js';
import { toTimestamp } from '../src/time.js';
import type { DeliveryStep } from '../src/webhooks/delivery/delivery-deps.js';
import { ALICE, loadOrganization } from './support/organization.js';
import { sharedDatabases } from './support/shared-database.js';
import { storeFixtures } from './support/stores.js';
import {
  deliveriesOf,
  insertEvent,
  insertWebhook,
  type Receiver,
  startReceiver,
  type TestDeliverer,
  testDeliverer,
} from './support/webhooks.js';

// Concurrency of delivery: one dead receiver never delays another webhook;
// two processes on one database (two Store objects, as two servers hold
// them) fan out and deliver each event once; a process that stalls past its
// lease loses the delivery to another, and its late outcome is not recorded.
// Interleavings are forced by holding a process at a delivery step, never by sleeping.

const T0 = '2026-03-02T08:00:00.000Z';
const LEASE_MS = 30_000;

/** A step hook that holds the first step matching `match` until released. */
function holdAt(match: (step: DeliveryStep) => boolean) {
  let arrive!: (step: DeliveryStep) => void;
  let release!: () => void;
  const reached = new Promise<DeliveryStep>((resolve) => {
    arrive = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let used = false;
  return {
    reached,
    release,
    hook: async (step: DeliveryStep) => {
      if (used || !match(step)) return;
      used = true;
      arrive(step);
      await gate;
    },
  };
}

describe.each(storeFixtures())('one dead receiver, one fast, on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let dead: Receiver;
  let fast: Receiver;
  let deliverer: TestDeliverer;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    await loadOrganization({ store, clock });
  });
  beforeEach(async () => {
    dead = await startReceiver(() => 'hang');
    fast = await startReceiver();
  });
  afterEach(async () => {
    await dead.close();
    await deliverer.close();
    await fast.close();
    await store.db.deleteFrom('webhook_deliveries').execute();
    await store.db.deleteFrom('webhooks').execute();
  });
  afterAll(() => fixture.cleanup());

  it("the fast webhook's deliveries all arrive while the dead one holds only its own 4 slots", async () => {
    deliverer = testDeliverer({ store, clock });
    const { id: deadId } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/dead`, events: ['booking.created'] });
    const { id: fastId } = await insertWebhook(store, clock, { owner: ALICE, url: `${fast.url}/fast`, events: ['booking.created'] });
    for (let i = 0; i < 10; i++) await insertEvent(store, clock, { host: ALICE });

    const first = await deliverer.step();
    expect(first).toMatchObject({ events: 10, started: 8 });
    // Each fast answer frees a slot; the next step fills it from the fast webhook, the dead one being full.
    const succeeded = () => deliverer.outcomes.filter((o) => o === 'succeeded').length;
    while (succeeded() < 10) {
      await deliverer.nextSettled();
      await deliverer.step();
    }
    const fastRows = await deliveriesOf(store, fastId);
    expect(fastRows.map((r) => r.status)).toEqual(Array(10).fill('succeeded'));
    expect(fast.received).toHaveLength(10);
    expect(deliverer.inFlight()).toBe(4);
    await dead.whenReceived(4);
    expect(dead.received).toHaveLength(4);
    const deadRows = await deliveriesOf(store, deadId);
    expect(deadRows.filter((r) => r.lease !== null)).toHaveLength(4);
    expect(deadRows.filter((r) => r.status === 'pending' && r.lease === null)).toHaveLength(6);

    // The dead receiver goes away: its four requests fail, and are retried later.
    await dead.close();
    expect(await first.finished).toHaveLength(8);
    const after = await deliveriesOf(store, deadId);
    expect(after.filter((r) => r.attempts === 1).map((r) => [r.status, r.last_status_code, r.lease])).toEqual(
      Array(4).fill(['pending', null, null]),
    );
  });

  it('the global cap bounds requests in flight over all webhooks', async () => {
    deliverer = testDeliverer({ store, clock }, { settings: { maxInFlight: 6 } });
    for (const path of ['/a', '/b', '/c']) {
      await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}${path}`, events: ['booking.created'] });
    }
    for (let i = 0; i < 5; i++) await insertEvent(store, clock, { host: ALICE });
    let started = 0;
    for (let i = 0; i < 5; i++) started += (await deliverer.step()).started;
    expect(started).toBe(6);
    expect(deliverer.inFlight()).toBe(6);
    await dead.whenReceived(6);
    expect(dead.received).toHaveLength(6);
  });

  it('stopping abandons the requests in flight: released unrecorded, sent again later', async () => {
    deliverer = testDeliverer({ store, clock });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/dead`, events: ['booking.created'] });
    await insertEvent(store, clock, { host: ALICE });
    const report = await deliverer.step();
    expect(report.started).toBe(1);
    await deliverer.stop();
    expect(await report.finished).toEqual(['released']);
    expect(await deliveriesOf(store, id)).toMatchObject([
      { status: 'pending', attempts: 0, lease: null, locked_until: null, last_error: null },
    ]);
  });
});

describe.each(sharedDatabases())('two processes on one $name database', (shared) => {
  let one: Store;
  let two: Store;
  let clock: ManualClock;
  let receiver: Receiver;
  const opened: TestDeliverer[] = [];
  const deliverer = (store: Store, options: Parameters<typeof testDeliverer>[1] = {}) => {
    const d = testDeliverer({ store, clock }, options);
    opened.push(d);
    return d;
  };

  beforeAll(async () => {
    [one, two] = await shared.open();
    clock = manualClock(T0);
    await loadOrganization({ store: one, clock });
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    clock.set(T0);
    receiver.received.length = 0;
    await one.db.deleteFrom('webhook_deliveries').execute();
    await one.db.deleteFrom('webhooks').execute();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await receiver?.close();
    await shared.cleanup();
  });

  it('each event is fanned out and delivered once, by one process or the other', async () => {
    const { id } = await insertWebhook(one, clock, { owner: ALICE, url: `${receiver.url}/hook`, events: ['booking.created'] });
    const events = [];
    for (let i = 0; i < 60; i++) events.push(await insertEvent(one, clock, { host: ALICE }));
    const a = deliverer(one, { settings: { fanOutBatch: 7 } });
    const b = deliverer(two, { settings: { fanOutBatch: 7 } });
    const [fromA, fromB] = await Promise.all([a.drain(), b.drain()]);
    expect(fromA.length + fromB.length).toBe(60);
    expect([...fromA, ...fromB].every((o) => o === 'succeeded')).toBe(true);
    const rows = await deliveriesOf(one, id);
    expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(events));
    expect(rows).toHaveLength(60);
    expect(receiver.received).toHaveLength(60);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set(rows.map((r) => r.id)));
  });

  it('events one process has claimed for fan-out are not fanned out again by the other', async () => {
    const { id } = await insertWebhook(one, clock, { owner: ALICE, url: `${receiver.url}/hook`, events: ['booking.created'] });
    for (let i = 0; i < 5; i++) await insertEvent(one, clock, { host: ALICE });
    const held = holdAt((step) => step.phase === 'events-claimed');
    const a = deliverer(one, { steps: held.hook });
    const b = deliverer(two);
    const stepA = a.step();
    expect(await held.reached).toMatchObject({ phase: 'events-claimed' });
    const outcomes: string[] = [];
    if (shared.name === 'postgres') {
      // SKIP LOCKED: the other process does not wait for the claimed rows, and finds nothing else to do.
      expect(await b.step()).toMatchObject({ events: 0, started: 0 });
      held.release();
    } else {
      // SQLite: the other process waits for the write lock, then finds the events dispatched
      // (and may claim a delivery A has no room for: A takes four, the cap per webhook).
      const stepB = b.step();
      held.release();
      const reportB = await stepB;
      expect(reportB).toMatchObject({ events: 0 });
      outcomes.push(...(await reportB.finished));
    }
    const reportA = await stepA;
    expect(reportA).toMatchObject({ events: 5, started: 4 });
    outcomes.push(...(await reportA.finished), ...(await b.drain()), ...(await a.drain()));
    expect(outcomes).toEqual(Array(5).fill('succeeded'));
    expect(await deliveriesOf(one, id)).toHaveLength(5);
    expect(receiver.received).toHaveLength(5);
  });

  it('a process stalled past its lease loses the delivery to the other; its late outcome is not recorded', async () => {
    const { id } = await insertWebhook(one, clock, { owner: ALICE, url: `${receiver.url}/hook`, events: ['booking.created'] });
    await insertEvent(one, clock, { host: ALICE });
    const held = holdAt((step) => step.phase === 'sending');
    const a = deliverer(one, { steps: held.hook });
    const b = deliverer(two);
    const stepA = await a.step();
    expect(stepA.started).toBe(1);
    await held.reached;

    // Leased by the stalled process: not the other's to take yet.
    expect(await b.step()).toMatchObject({ events: 0, started: 0 });
    clock.advance(LEASE_MS - 1);
    expect(await b.step()).toMatchObject({ started: 0 });
    clock.advance(1);
    const stepB = await b.step();
    expect(stepB.started).toBe(1);
    expect(await stepB.finished).toEqual(['succeeded']);

    // The stalled process wakes and sends too (at least once); its success finds the lease gone.
    held.release();
    expect(await stepA.finished).toEqual(['released']);
    const [row] = await deliveriesOf(one, id);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1, delivered_at: toTimestamp(clock.now()), lease: null });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([row!.id, row!.id]);
  });
});
