import { createServer } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { Store } from '../src/storage/store.js';
import { toTimestamp } from '../src/time.js';
import type { DeliveryStep } from '../src/webhooks/delivery/delivery-deps.js';
import { ADA, ALICE, loadOrganization, MIA, OSCAR, URSULA } from './support/organization.js';
import { sharedDatabases } from './support/shared-database.js';
import { storeFixtures } from './support/stores.js';
import { seedDelivery } from './support/webhook-calls.js';
import {
  deliveriesOf,
  holdAt,
  insertEvent,
  insertWebhook,
  type Receiver,
  startReceiver,
  type TestDeliverer,
  testDeliverer,
  webhookRow,
} from './support/webhooks.js';

// Concurrency of delivery: dead and slow receivers never delay another
// webhook (a bounded share of slots per webhook, per account and for
// receivers not proven prompt; a request that times out backs its webhook
// off, then one probe); two processes on one database (two Store objects, as
// two servers hold them) fan out and deliver each event once, and see each
// other's back-offs; a process that stalls past its lease loses the delivery
// to another, and its late outcome is not recorded. Interleavings are forced
// by holding a process at a delivery step, never by sleeping; the client's
// timeout is real (short where a test needs one), the back-off runs on the
// injected clock.

const T0 = '2026-03-02T08:00:00.000Z';
const at = (ms: number) => toTimestamp(Date.parse(T0) + ms);
const LEASE_MS = 30_000;
/** The client's time limit where a test needs a hanging receiver to time out. */
const TIMEOUT_MS = 150;
/**
 * The request budget of the tests whose receiver never answers: longer than
 * any test, so a hanging request ends only when the test closes the receiver
 * or stops the deliverer. With the client's 10 s, a loaded machine that took
 * 10 s over the fast deliveries saw the hanging ones end on the way (seen on
 * PostgreSQL: 1 in flight where 4 were held).
 */
const HANG_MS = 600_000;

/**
 * Records the order in which deliveries were sent and answered, so a test can
 * tell afterwards how many of one receiver's requests were in flight at once.
 */
function sendLog() {
  const log: { phase: 'sending' | 'answered'; id: string }[] = [];
  return {
    hook: async (step: DeliveryStep) => {
      if (step.phase !== 'events-claimed') log.push({ phase: step.phase, id: step.deliveryId });
    },
    /** The most requests of these deliveries in flight at once. */
    mostAtOnce(ids: ReadonlySet<string>): number {
      let now = 0;
      let most = 0;
      for (const entry of log) {
        if (!ids.has(entry.id)) continue;
        now += entry.phase === 'sending' ? 1 : -1;
        most = Math.max(most, now);
      }
      return most;
    },
  };
}

describe.each(storeFixtures())('dead and slow receivers beside a fast one, on $name', (fixture) => {
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
    clock.set(T0);
    // Accepts each request, reads it, and never answers: the socket stays open until the client gives up.
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
    deliverer = testDeliverer({ store, clock }, { timeoutMs: HANG_MS });
    // Both answered promptly until now: each may have four requests in flight.
    const known = { owner: ALICE, events: ['booking.created'], answersPromptly: true };
    const { id: deadId } = await insertWebhook(store, clock, { ...known, url: `${dead.url}/dead` });
    const { id: fastId } = await insertWebhook(store, clock, { ...known, url: `${fast.url}/fast` });
    for (let i = 0; i < 10; i++) await insertEvent(store, clock, { host: ALICE });

    const first = await deliverer.step();
    expect(first).toMatchObject({ events: 10, started: 8 });
    // Each fast answer frees a slot; the next step fills it from the fast webhook, the dead one being full.
    await deliverer.stepUntilSucceeded(10);
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
    deliverer = testDeliverer({ store, clock }, { settings: { maxInFlight: 6 }, timeoutMs: HANG_MS });
    for (const path of ['/a', '/b', '/c']) {
      await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}${path}`, events: ['booking.created'], answersPromptly: true });
    }
    for (let i = 0; i < 5; i++) await insertEvent(store, clock, { host: ALICE });
    let started = 0;
    for (let i = 0; i < 5; i++) started += (await deliverer.step()).started;
    expect(started).toBe(6);
    expect(deliverer.inFlight()).toBe(6);
    // Every slot taken: a step claims nothing, and says the next work is a slot freeing, not another step at once.
    expect(await deliverer.step()).toMatchObject({ started: 0, more: false });
    await dead.whenReceived(6);
    expect(dead.received).toHaveLength(6);
  });

  it('a claim that fills every free slot says there may be more; one that left a row for lack of room, or found fewer, says not', async () => {
    deliverer = testDeliverer({ store, clock }, { settings: { maxInFlight: 2 } });
    const { id: unproven } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/new`, events: ['booking.created'] });
    const { id: prompt } = await insertWebhook(store, clock, {
      owner: OSCAR,
      url: `${fast.url}/prompt`,
      events: ['booking.created'],
      answersPromptly: true,
    });
    const seed = (webhook_id: string, dueAt: string) =>
      seedDelivery(store, { id: randomIds.uuid(), webhook_id, event_id: randomIds.uuid(), created_at: dueAt });
    // Due first, two of a webhook with room for one: the claim's window of two holds both, and takes one.
    await seed(unproven, at(-2));
    await seed(unproven, at(-1));
    await seed(prompt, T0);
    expect(await deliverer.step()).toMatchObject({ events: 0, started: 1, more: false });
    // The full webhook left out, its one slot goes to the prompt one: every free slot filled.
    const second = await deliverer.step();
    expect(second).toMatchObject({ started: 1, more: true });
    await second.finished;
    // A slot free and nothing left it may take.
    expect(await deliverer.step()).toMatchObject({ started: 0, more: false });
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

  /**
   * Ten hanging webhooks (owners as given) and Alice's prompt one all receive
   * 100 events of `host`. Steps as each delivery ends, until the prompt
   * receiver has all 100; fails the test if that needs a hanging request to end.
   */
  async function deliverBeside(owners: readonly string[], host: string) {
    const log = sendLog();
    deliverer = testDeliverer({ store, clock }, { steps: log.hook, timeoutMs: HANG_MS });
    for (const [i, owner] of owners.entries()) {
      await insertWebhook(store, clock, { owner, url: `${dead.url}/hang-${i}`, events: ['booking.created'] });
    }
    const { id: promptId } = await insertWebhook(store, clock, { owner: ALICE, url: `${fast.url}/prompt`, events: ['booking.created'] });
    for (let i = 0; i < 100; i++) await insertEvent(store, clock, { host });

    // Each prompt answer frees a slot and the next step fills it; a hanging request never ends before the test does (HANG_MS).
    await deliverer.stepUntilSucceeded(100);
    const promptRows = await deliveriesOf(store, promptId);
    expect(promptRows.map((r) => r.status)).toEqual(Array(100).fill('succeeded'));
    expect(fast.received).toHaveLength(100);
    // No hanging request ended on the way: the prompt receiver never waited for a slot one of them held.
    expect(deliverer.outcomes).toEqual(Array(100).fill('succeeded'));
    return { promptMostAtOnce: log.mostAtOnce(new Set(promptRows.map((r) => r.id))), hangingInFlight: deliverer.inFlight() };
  }

  it("ten hanging webhooks of one account: the prompt receiver's 100 deliveries all arrive, four at a time, before any of them times out", async () => {
    const { promptMostAtOnce, hangingInFlight } = await deliverBeside(Array(10).fill(OSCAR), OSCAR);
    // Four at once: what one webhook gets when no receiver hangs.
    expect(promptMostAtOnce).toBe(4);
    // One account holds at most 8 of the process's 16 slots, whatever number of webhooks it makes.
    expect(hangingInFlight).toBe(8);
    await dead.whenReceived(8);
    expect(dead.received).toHaveLength(8);
  });

  it("ten hanging webhooks of three accounts: the prompt receiver's 100 deliveries all arrive, four at a time, before any of them times out", async () => {
    // Ursula's bookings reach Ursula, her manager Mia, the admin Ada and the owner Alice.
    const { promptMostAtOnce, hangingInFlight } = await deliverBeside(
      [...Array(4).fill(URSULA), ...Array(3).fill(MIA), ...Array(3).fill(ADA)],
      URSULA,
    );
    expect(promptMostAtOnce).toBe(4);
    // A receiver that has not yet answered gets one request at a time.
    expect(hangingInFlight).toBe(10);
    await dead.whenReceived(10);
    expect(dead.received).toHaveLength(10);
  });

  it('a request that times out backs the webhook off 10 s: nothing of it goes out before, then one probe', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, {
      owner: ALICE,
      url: `${dead.url}/slow`,
      events: ['booking.created'],
      answersPromptly: true,
    });
    for (let i = 0; i < 5; i++) await insertEvent(store, clock, { host: ALICE });

    // It answered promptly before: four requests go out, and all four time out.
    const first = await deliverer.step();
    expect(first.started).toBe(4);
    expect(await first.finished).toEqual(Array(4).fill('retrying'));
    expect(await webhookRow(store, id)).toMatchObject({ answers_promptly: 0, backoff_until: at(10_000), consecutive_failures: 4 });
    // Every delivery waits for the back-off, the four that failed (due again in 5 s) and the one never sent alike.
    const rows = await deliveriesOf(store, id);
    expect(rows.map((r) => [r.attempts, r.next_attempt_at, r.last_error])).toEqual([
      ...Array(4).fill([1, at(10_000), `no answer within ${TIMEOUT_MS / 1000} s`]),
      [0, at(10_000), null],
    ]);

    clock.advance(9_999);
    expect(await deliverer.step()).toMatchObject({ started: 0 });
    clock.advance(1);
    // The back-off over, one probe: the receiver has not answered promptly since.
    const probe = await deliverer.step();
    expect(probe.started).toBe(1);
    expect(await probe.finished).toEqual(['retrying']);
    expect(dead.received).toHaveLength(5);
    // Failing for 10 s by now: backed off as long again.
    expect(await webhookRow(store, id)).toMatchObject({ backoff_until: at(20_000), consecutive_failures: 5 });
  });

  it('the back-off grows with the time the receiver has been failing, up to 10 min', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/slow`, events: ['booking.created'] });
    for (let i = 0; i < 12; i++) await insertEvent(store, clock, { host: ALICE });
    const ends: (string | null)[] = [];
    for (let probe = 0; probe < 9; probe++) {
      const report = await deliverer.step();
      expect(report.started).toBe(1);
      await report.finished;
      const { backoff_until } = await webhookRow(store, id);
      ends.push(backoff_until);
      clock.set(backoff_until!);
    }
    // 10 s, then as long again as it has been failing: 10 s, 20 s, 40 s, … capped at 10 min.
    expect(ends).toEqual([10, 20, 40, 80, 160, 320, 640, 1240, 1840].map((s) => at(s * 1000)));
  });

  it('an answer ends the back-off: a prompt one gives the webhook its four requests again', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/slow`, events: ['booking.created'] });
    for (let i = 0; i < 8; i++) await insertEvent(store, clock, { host: ALICE });
    expect(await (await deliverer.step()).finished).toEqual(['retrying']);

    dead.answer = () => ({ status: 200 });
    clock.advance(10_000);
    const probe = await deliverer.step();
    expect(probe.started).toBe(1);
    expect(await probe.finished).toEqual(['succeeded']);
    expect(await webhookRow(store, id)).toMatchObject({
      answers_promptly: 1,
      backoff_until: null,
      consecutive_failures: 0,
      failing_since: null,
    });
    expect(await deliverer.step()).toMatchObject({ started: 4 });
  });

  it('a failed answer ends the back-off too: the receiver answers, and the delivery waits on its own schedule', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/slow`, events: ['booking.created'] });
    for (let i = 0; i < 3; i++) await insertEvent(store, clock, { host: ALICE });
    await (await deliverer.step()).finished;

    dead.answer = () => ({ status: 503 });
    clock.advance(10_000);
    expect(await (await deliverer.step()).finished).toEqual(['retrying']);
    expect(await webhookRow(store, id)).toMatchObject({ answers_promptly: 1, backoff_until: null, consecutive_failures: 2 });
  });

  it('events that commit during the back-off wait for its end, and are not leased at fan-out', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/slow`, events: ['booking.created'] });
    await insertEvent(store, clock, { host: ALICE });
    await (await deliverer.step()).finished;

    clock.advance(3_000);
    await insertEvent(store, clock, { host: ALICE });
    expect(await deliverer.step()).toMatchObject({ events: 1, started: 0 });
    const rows = await deliveriesOf(store, id);
    expect(rows.map((r) => [r.attempts, r.next_attempt_at, r.lease])).toEqual([
      [1, at(10_000), null],
      [0, at(10_000), null],
    ]);
  });

  it('a receiver that refuses the connection is not backed off: it holds no slot while it fails', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `http://127.0.0.1:${port}/gone`, events: ['booking.created'] });
    await insertEvent(store, clock, { host: ALICE });
    expect(await (await deliverer.step()).finished).toEqual(['retrying']);
    expect(await webhookRow(store, id)).toMatchObject({ backoff_until: null, consecutive_failures: 1 });
  });

  it('an answer within 2 s is prompt; a later one leaves the webhook one request at a time, and is not backed off', async () => {
    deliverer = testDeliverer({ store, clock });
    const { id } = await insertWebhook(store, clock, {
      owner: ALICE,
      url: `${dead.url}/late`,
      events: ['booking.created'],
      answersPromptly: true,
    });
    for (let i = 0; i < 12; i++) await insertEvent(store, clock, { host: ALICE });
    // The first answer of each step takes `took` ms on the injected clock; the rest come at once.
    let took = 2_000;
    dead.answer = () => {
      clock.advance(took);
      took = 0;
      return { status: 200 };
    };
    const first = await deliverer.step();
    expect(first.started).toBe(4);
    expect(await first.finished).toEqual(Array(4).fill('succeeded'));
    expect(await webhookRow(store, id)).toMatchObject({ answers_promptly: 1 });

    took = 2_001;
    const second = await deliverer.step();
    expect(second.started).toBe(4);
    expect(await second.finished).toEqual(Array(4).fill('succeeded'));
    expect(await webhookRow(store, id)).toMatchObject({ answers_promptly: 0, backoff_until: null });
    expect(await deliverer.step()).toMatchObject({ started: 1 });
  });

  it('once a back-off has ended, a new event of the webhook goes out at once, one at a time: the probe', async () => {
    deliverer = testDeliverer({ store, clock });
    const { id } = await insertWebhook(store, clock, {
      owner: ALICE,
      url: `${fast.url}/back`,
      events: ['booking.created'],
      backoffUntil: at(-1),
    });
    for (let i = 0; i < 2; i++) await insertEvent(store, clock, { host: ALICE });
    const report = await deliverer.step();
    expect(report).toMatchObject({ events: 2, started: 1 });
    expect(await report.finished).toEqual(['succeeded']);
    // Both were due at once, not at the back-off's past end.
    expect((await deliveriesOf(store, id)).map((r) => [r.status, r.next_attempt_at])).toEqual([
      ['succeeded', T0],
      ['pending', T0],
    ]);
    expect(await webhookRow(store, id)).toMatchObject({ answers_promptly: 1, backoff_until: null });
  });

  it('a longer back-off already running (set by another process) is kept', async () => {
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${dead.url}/slow`, events: ['booking.created'] });
    // While this process's request waits for its timeout, another has backed the webhook off for a minute.
    const elsewhere = async (step: DeliveryStep) => {
      if (step.phase === 'answered')
        await store.db
          .updateTable('webhooks')
          .set({ backoff_until: at(60_000) })
          .where('id', '=', id)
          .execute();
    };
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS, steps: elsewhere });
    await insertEvent(store, clock, { host: ALICE });
    expect(await (await deliverer.step()).finished).toEqual(['retrying']);
    expect(await webhookRow(store, id)).toMatchObject({ backoff_until: at(60_000) });
  });

  it('receivers not proven prompt hold at most 12 slots: a prompt one keeps the other 4', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: HANG_MS });
    // Fourteen that never answer, of three accounts (none over its 8), all receiving Ursula's bookings.
    const owners = [...Array(5).fill(URSULA), ...Array(5).fill(MIA), ...Array(4).fill(ADA)];
    for (const [i, owner] of owners.entries()) {
      await insertWebhook(store, clock, { owner, url: `${dead.url}/hang-${i}`, events: ['booking.created'] });
    }
    const { id: fastId } = await insertWebhook(store, clock, {
      owner: ALICE,
      url: `${fast.url}/fast`,
      events: ['booking.created'],
      answersPromptly: true,
    });
    for (let i = 0; i < 20; i++) await insertEvent(store, clock, { host: URSULA });
    await deliverer.stepUntilSucceeded(20);
    expect(deliverer.outcomes).toEqual(Array(20).fill('succeeded'));
    expect((await deliveriesOf(store, fastId)).map((r) => r.status)).toEqual(Array(20).fill('succeeded'));
    expect(deliverer.inFlight()).toBe(12);
    await dead.whenReceived(12);
    expect(dead.received).toHaveLength(12);
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
    const { id } = await insertWebhook(one, clock, {
      owner: ALICE,
      url: `${receiver.url}/hook`,
      events: ['booking.created'],
      answersPromptly: true,
    });
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

  it('a receiver one process saw time out is backed off for the other too', async () => {
    const hanging = await startReceiver(() => 'hang');
    try {
      const { id } = await insertWebhook(one, clock, { owner: ALICE, url: `${hanging.url}/hang`, events: ['booking.created'] });
      for (let i = 0; i < 3; i++) await insertEvent(one, clock, { host: ALICE });
      const a = deliverer(one, { timeoutMs: TIMEOUT_MS });
      const b = deliverer(two, { timeoutMs: TIMEOUT_MS });
      expect(await (await a.step()).finished).toEqual(['retrying']);
      expect(await webhookRow(one, id)).toMatchObject({ backoff_until: toTimestamp(clock.now() + 10_000) });
      // Two deliveries are due (never sent), but the webhook is backed off: the other process leaves them too.
      expect(await b.step()).toMatchObject({ events: 0, started: 0 });
      clock.advance(10_000);
      const probe = await b.step();
      expect(probe.started).toBe(1);
      expect(await probe.finished).toEqual(['retrying']);
      expect(await a.step()).toMatchObject({ started: 0 });
    } finally {
      await hanging.close();
    }
  });

  it.each([
    ['500', 500],
    ['410 Gone', 410],
  ])('a process stalled past its lease records nothing of its late answer (%s): the other process delivered', async (_, status) => {
    const { id } = await insertWebhook(one, clock, { owner: ALICE, url: `${receiver.url}/hook`, events: ['booking.created'] });
    await insertEvent(one, clock, { host: ALICE });
    let requests = 0;
    receiver.answer = () => ({ status: requests++ === 0 ? status : 200 });
    try {
      const held = holdAt((step) => step.phase === 'answered');
      const a = deliverer(one, { steps: held.hook });
      const stepA = await a.step();
      await held.reached;
      clock.advance(LEASE_MS);
      const stepB = await deliverer(two).step();
      expect(await stepB.finished).toEqual(['succeeded']);
      held.release();
      expect(await stepA.finished).toEqual(['released']);
      const [row] = await deliveriesOf(one, id);
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null });
      expect(await webhookRow(one, id)).toMatchObject({
        status: 'active',
        paused_reason: null,
        consecutive_failures: 0,
        failing_since: null,
      });
      expect(a.logged).toEqual([]);
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it.runIf(shared.name === 'postgres')(
    "a failing attempt waits for the webhook's row lock before it locks its delivery, so two failing attempts queue instead of deadlocking",
    async () => {
      const { id } = await insertWebhook(one, clock, { owner: ALICE, url: `${receiver.url}/hook`, events: ['booking.created'] });
      await insertEvent(one, clock, { host: ALICE });
      receiver.answer = () => ({ status: 500 });
      try {
        const held = holdAt((step) => step.phase === 'answered');
        const report = await deliverer(two, { steps: held.hook }).step();
        const { deliveryId } = (await held.reached) as { deliveryId: string };
        // Another attempt of the webhook holding its row, as one that is pausing the webhook does.
        await one.db.transaction().execute(async (trx) => {
          await trx.selectFrom('webhooks').select('id').where('id', '=', id).forUpdate().execute();
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          const holder = rows[0]!.pid;
          held.release();
          // Until the attempt is seen waiting for this transaction's lock: no sleep, a wait for that state.
          const waiting = sql`select 1 from pg_stat_activity where ${holder} = any(pg_blocking_pids(pid))`;
          while ((await waiting.execute(one.db)).rows.length === 0) await new Promise((resolve) => setImmediate(resolve));
          // Its delivery is not locked yet: the attempt waits on the webhook first.
          const free = await sql`select id from webhook_deliveries where id = ${deliveryId} for update nowait`.execute(trx);
          expect(free.rows).toEqual([{ id: deliveryId }]);
        });
        expect(await report.finished).toEqual(['retrying']);
        expect(await webhookRow(one, id)).toMatchObject({ consecutive_failures: 1 });
      } finally {
        receiver.answer = () => ({ status: 200 });
      }
    },
  );

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
