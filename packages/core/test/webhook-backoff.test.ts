import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { Store } from '../src/storage/store.js';
import { toTimestamp } from '../src/time.js';
import { ADA, ALICE, loadOrganization, MIA, URSULA } from './support/organization.js';
import { storeFixtures } from './support/stores.js';
import {
  deliveriesOf,
  insertEvent,
  insertWebhook,
  type Receiver,
  startReceiver,
  type TestDeliverer,
  testDeliverer,
  webhookRow,
} from './support/webhooks.js';

// Receivers that are slow to answer, or never do: a request that times out
// backs its webhook off (no delivery of it is sent until the back-off ends,
// then one probe), a receiver that has not answered promptly gets one request
// at a time, and those together never take the slots kept for receivers that
// answer promptly. The client's timeout is real (short here); the back-off
// runs on the injected clock.

const T0 = '2026-03-02T08:00:00.000Z';
const at = (ms: number) => toTimestamp(Date.parse(T0) + ms);
/** The client's time limit in these tests: a hanging receiver times out this fast. */
const TIMEOUT_MS = 150;

describe.each(storeFixtures())('slow receivers on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let receiver: Receiver;
  let deliverer: TestDeliverer;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    await loadOrganization({ store, clock });
  });
  beforeEach(async () => {
    clock.set(T0);
    receiver = await startReceiver(() => 'hang');
  });
  afterEach(async () => {
    await receiver.close();
    await deliverer.close();
    await store.db.deleteFrom('webhook_deliveries').execute();
    await store.db.deleteFrom('webhooks').execute();
  });
  afterAll(() => fixture.cleanup());

  it('a request that times out backs the webhook off 10 s: nothing of it goes out before, then one probe', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, {
      owner: ALICE,
      url: `${receiver.url}/slow`,
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
    expect(receiver.received).toHaveLength(5);
    // Failing for 10 s by now: backed off as long again.
    expect(await webhookRow(store, id)).toMatchObject({ backoff_until: at(20_000), consecutive_failures: 5 });
  });

  it('the back-off grows with the time the receiver has been failing, up to 10 min', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${receiver.url}/slow`, events: ['booking.created'] });
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
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${receiver.url}/slow`, events: ['booking.created'] });
    for (let i = 0; i < 8; i++) await insertEvent(store, clock, { host: ALICE });
    expect(await (await deliverer.step()).finished).toEqual(['retrying']);

    receiver.answer = () => ({ status: 200 });
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
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${receiver.url}/slow`, events: ['booking.created'] });
    for (let i = 0; i < 3; i++) await insertEvent(store, clock, { host: ALICE });
    await (await deliverer.step()).finished;

    receiver.answer = () => ({ status: 503 });
    clock.advance(10_000);
    expect(await (await deliverer.step()).finished).toEqual(['retrying']);
    expect(await webhookRow(store, id)).toMatchObject({ answers_promptly: 1, backoff_until: null, consecutive_failures: 2 });
  });

  it('events that commit during the back-off wait for its end, and are not leased at fan-out', async () => {
    deliverer = testDeliverer({ store, clock }, { timeoutMs: TIMEOUT_MS });
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url: `${receiver.url}/slow`, events: ['booking.created'] });
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

  it('a receiver that answers later than 2 s gets one request at a time, and is not backed off', async () => {
    deliverer = testDeliverer({ store, clock });
    const { id } = await insertWebhook(store, clock, {
      owner: ALICE,
      url: `${receiver.url}/late`,
      events: ['booking.created'],
      answersPromptly: true,
    });
    for (let i = 0; i < 10; i++) await insertEvent(store, clock, { host: ALICE });
    // The first answer takes 2.001 s on the injected clock; the rest come at once.
    let late = true;
    receiver.answer = () => {
      if (late) clock.advance(2_001);
      late = false;
      return { status: 200 };
    };
    const first = await deliverer.step();
    expect(first.started).toBe(4);
    expect(await first.finished).toEqual(Array(4).fill('succeeded'));
    expect(await webhookRow(store, id)).toMatchObject({ answers_promptly: 0, backoff_until: null });
    expect(await deliverer.step()).toMatchObject({ started: 1 });
  });

  it('receivers not proven prompt hold at most 12 slots: a prompt one keeps the other 4', async () => {
    deliverer = testDeliverer({ store, clock });
    const prompt = await startReceiver();
    try {
      // Fourteen that never answer, of three accounts (none over its 8), all receiving Ursula's bookings.
      const owners = [...Array(5).fill(URSULA), ...Array(5).fill(MIA), ...Array(4).fill(ADA)];
      for (const [i, owner] of owners.entries()) {
        await insertWebhook(store, clock, { owner, url: `${receiver.url}/hang-${i}`, events: ['booking.created'] });
      }
      const { id: promptId } = await insertWebhook(store, clock, {
        owner: ALICE,
        url: `${prompt.url}/prompt`,
        events: ['booking.created'],
        answersPromptly: true,
      });
      for (let i = 0; i < 20; i++) await insertEvent(store, clock, { host: URSULA });
      await deliverer.step();
      while (deliverer.outcomes.length < 20) {
        await deliverer.nextSettled();
        await deliverer.step();
      }
      expect(deliverer.outcomes).toEqual(Array(20).fill('succeeded'));
      expect((await deliveriesOf(store, promptId)).map((r) => r.status)).toEqual(Array(20).fill('succeeded'));
      expect(deliverer.inFlight()).toBe(12);
      await receiver.whenReceived(12);
      expect(receiver.received).toHaveLength(12);
    } finally {
      await prompt.close();
    }
  });
});
