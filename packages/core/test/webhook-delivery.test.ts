import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../src/clock.js';
import { updateBookingOperation } from '../src/operations/booking-operations.js';
import { execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { toTimestamp } from '../src/time.js';
import { testDeps } from './support/deps.js';
import { ADA, ALICE, loadOrganization, MIA, OSCAR, principalOf, SECRET, URSULA } from './support/organization.js';
import { storeFixtures } from './support/stores.js';
import {
  deliveriesOf,
  holdAt,
  insertEvent,
  insertWebhook,
  newSecret,
  type Received,
  type Receiver,
  startReceiver,
  type TestDeliverer,
  testDeliverer,
  webhookRow,
} from './support/webhooks.js';

// Delivery end to end in one process: outbox events fanned out to webhooks,
// POSTed to a real HTTP receiver on loopback, signed so that the
// `standardwebhooks` package (a verifier no one here wrote) accepts them,
// retried on the schedule of docs/webhooks.md with a manual clock.

const B_ALICE = '30000000-0000-4000-8000-00000000000a';
const B_URSULA = '30000000-0000-4000-8000-00000000000c';
const B_OSCAR = '30000000-0000-4000-8000-00000000000d';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

/** Now, in whole seconds: standardwebhooks checks webhook-timestamp against the real clock (5 min tolerance). */
const realNow = () => Math.floor(Date.now() / 1000) * 1000;

function headersOf(got: Received): Record<string, string> {
  return Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));
}

describe.each(storeFixtures())('webhook delivery on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let receiver: Receiver;
  let deliverer: TestDeliverer;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(realNow());
    await loadOrganization({ store, clock }, [
      { uid: B_ALICE, host: 'alice', start: '2026-09-01T09:00:00Z' },
      { uid: B_URSULA, host: 'ursula', start: '2026-09-01T10:00:00Z' },
      { uid: B_OSCAR, host: 'oscar', start: '2026-09-01T11:00:00Z' },
    ]);
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    clock.set(realNow());
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
    deliverer = testDeliverer({ store, clock });
    // Each test starts with no webhooks and an empty outbox.
    await store.db.deleteFrom('webhook_deliveries').execute();
    await store.db.deleteFrom('webhooks').execute();
    await store.db.deleteFrom('notifications').execute();
    await store.db
      .updateTable('outbox')
      .set({ dispatched_at: toTimestamp(clock.now()) })
      .execute();
  });
  afterEach(() => deliverer.close());
  afterAll(async () => {
    await receiver?.close();
    await fixture.cleanup();
  });

  const hook = (path = '/hook') => `${receiver.url}${path}`;

  describe('signing (Standard Webhooks)', () => {
    it('the receiver gets the envelope, signed: standardwebhooks verifies it', async () => {
      const { id: webhookId, secret } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      const at = toTimestamp(clock.now());
      const eventId = await insertEvent(store, clock, { host: ALICE, uid: 'b-1', data: { title: 'Intro' } });

      expect(await deliverer.drain()).toEqual(['succeeded']);

      const [delivery] = await deliveriesOf(store, webhookId);
      expect(receiver.received).toHaveLength(1);
      const got = receiver.received[0]!;
      expect(got.path).toBe('/hook');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['webhook-id']).toBe(delivery!.id);
      expect(got.headers['webhook-timestamp']).toBe(String(clock.now() / 1000));
      expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      const envelope = {
        type: 'booking.created',
        id: eventId,
        created_at: at,
        data: { uid: 'b-1', host: { user_id: ALICE }, title: 'Intro' },
      };
      expect(JSON.parse(got.body)).toEqual(envelope);
      expect(new Webhook(secret).verify(got.body, headersOf(got))).toEqual(envelope);

      expect(delivery).toEqual({
        id: delivery!.id,
        webhook_id: webhookId,
        event_id: eventId,
        event_type: 'booking.created',
        payload_json: got.body,
        status: 'succeeded',
        attempts: 1,
        next_attempt_at: at,
        lease: null,
        locked_until: null,
        last_status_code: 200,
        last_response_body: 'ok',
        last_error: null,
        created_at: at,
        delivered_at: at,
      });
      const event = await store.db.selectFrom('outbox').select('dispatched_at').where('id', '=', eventId).executeTakeFirstOrThrow();
      expect(event.dispatched_at).toBe(at);
    });

    it('a tampered body, a wrong secret and an old timestamp fail verification', async () => {
      const { secret } = await insertWebhook(store, clock, {
        owner: ALICE,
        url: hook(),
        events: ['booking.created'],
        createdAt: toTimestamp(clock.now() - 1 * H),
      });
      await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();
      const got = receiver.received[0]!;
      const headers = headersOf(got);
      expect(() => new Webhook(secret).verify(got.body.replace('booking.created', 'booking.canceled'), headers)).toThrow(
        'No matching signature found',
      );
      expect(() => new Webhook(newSecret()).verify(got.body, headers)).toThrow('No matching signature found');

      // Sent by a clock six minutes behind: the signature is right, the time is not.
      clock.set(realNow() - 6 * M);
      await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();
      const late = receiver.received[1]!;
      expect(late.headers['webhook-timestamp']).toBe(String(clock.now() / 1000));
      expect(() => new Webhook(secret).verify(late.body, headersOf(late))).toThrow('Message timestamp too old');
    });

    it('during a rotation both secrets sign; once the overlap ends only the new one', async () => {
      const oldSecret = newSecret();
      // Rotated 23 h 59 min ago: the previous secret signs for one more minute.
      const { secret } = await insertWebhook(store, clock, {
        owner: ALICE,
        url: hook(),
        events: ['booking.created'],
        previousSecret: oldSecret,
        previousSecretUntil: toTimestamp(clock.now() + 1 * M),
      });
      await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();
      const during = receiver.received[0]!;
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(new Webhook(secret).verify(during.body, headersOf(during))).toBeTruthy();
      expect(new Webhook(oldSecret).verify(during.body, headersOf(during))).toBeTruthy();

      clock.advance(1 * M);
      await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();
      const after = receiver.received[1]!;
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(new Webhook(secret).verify(after.body, headersOf(after))).toBeTruthy();
      expect(() => new Webhook(oldSecret).verify(after.body, headersOf(after))).toThrow('No matching signature found');
    });
  });

  describe('retries', () => {
    it('immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed; one webhook-id throughout', async () => {
      receiver.answer = () => ({ status: 500, body: 'down' });
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      const t0 = clock.now();
      await insertEvent(store, clock, { host: ALICE });

      expect(await deliverer.drain()).toEqual(['retrying']);
      let elapsed = 0;
      const expected = (attempts: number, status: string, next: number) => ({
        status,
        attempts,
        next_attempt_at: toTimestamp(t0 + next),
        last_status_code: 500,
        last_response_body: 'down',
        last_error: 'HTTP 500',
        lease: null,
        delivered_at: null,
      });
      const pick = async () => {
        const [row] = await deliveriesOf(store, webhookId);
        const { status, attempts, next_attempt_at, last_status_code, last_response_body, last_error, lease, delivered_at } = row!;
        return { status, attempts, next_attempt_at, last_status_code, last_response_body, last_error, lease, delivered_at };
      };
      expect(await pick()).toEqual(expected(1, 'pending', 5 * S));

      const delays = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H];
      for (const [i, delay] of delays.entries()) {
        // One millisecond early: nothing is due yet.
        clock.advance(delay - 1);
        expect(await deliverer.drain()).toEqual([]);
        clock.advance(1);
        elapsed += delay;
        const last = i === delays.length - 1;
        expect(await deliverer.drain()).toEqual([last ? 'failed' : 'retrying']);
        expect(await pick()).toEqual(expected(i + 2, last ? 'failed' : 'pending', last ? elapsed : elapsed + delays[i + 1]!));
      }
      clock.advance(24 * H);
      expect(await deliverer.drain()).toEqual([]);

      expect(receiver.received).toHaveLength(8);
      const [delivery] = await deliveriesOf(store, webhookId);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery!.id]));
      // 8 failures over 27 h 35 min: past 24 h but short of 10 failures, so the webhook stays active.
      expect(await webhookRow(store, webhookId)).toMatchObject({
        status: 'active',
        consecutive_failures: 8,
        failing_since: toTimestamp(t0),
      });
    });

    it('a success ends the run of failures', async () => {
      receiver.answer = () => ({ status: 503 });
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();
      expect(await webhookRow(store, webhookId)).toMatchObject({ consecutive_failures: 1, failing_since: toTimestamp(clock.now()) });
      receiver.answer = () => ({ status: 204 });
      clock.advance(5 * S);
      expect(await deliverer.drain()).toEqual(['succeeded']);
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'active', consecutive_failures: 0, failing_since: null });
      const [row] = await deliveriesOf(store, webhookId);
      expect(row).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 204, last_response_body: '', last_error: null });
    });

    it('any 2xx is a success, 299 included', async () => {
      receiver.answer = () => ({ status: 299 });
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['succeeded']);
      expect((await deliveriesOf(store, webhookId))[0]).toMatchObject({ status: 'succeeded', last_status_code: 299 });
    });

    it('Retry-After is honoured when it asks for longer than the schedule, up to 10 h', async () => {
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      const t0 = clock.now();
      const next = async () => (await deliveriesOf(store, webhookId))[0]!.next_attempt_at;
      await insertEvent(store, clock, { host: ALICE });

      receiver.answer = () => ({ status: 429, headers: { 'retry-after': '120' } });
      await deliverer.drain();
      expect(await next()).toBe(toTimestamp(t0 + 120 * S)); // the schedule said 5 s

      clock.set(t0 + 120 * S);
      receiver.answer = () => ({ status: 503, headers: { 'retry-after': '1' } });
      await deliverer.drain();
      expect(await next()).toBe(toTimestamp(t0 + 120 * S + 5 * M)); // shorter than the schedule: the schedule

      clock.set(t0 + 120 * S + 5 * M);
      const threeDays = new Date(clock.now() + 72 * H).toUTCString();
      receiver.answer = () => ({ status: 503, headers: { 'retry-after': threeDays } });
      await deliverer.drain();
      expect(await next()).toBe(toTimestamp(t0 + 120 * S + 5 * M + 10 * H)); // capped at the schedule's longest wait

      clock.set(t0 + 120 * S + 5 * M + 10 * H);
      const inOneHour = new Date(clock.now() + 1 * H).toUTCString();
      receiver.answer = () => ({ status: 503, headers: { 'retry-after': inOneHour } });
      await deliverer.drain();
      expect(await next()).toBe(toTimestamp(t0 + 120 * S + 5 * M + 10 * H + 2 * H)); // the schedule's 2 h is longer
    });

    it('a redirect is not followed: it is a failed attempt', async () => {
      receiver.answer = (got) =>
        got.path === '/hook' ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : { status: 200 };
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['retrying']);
      expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
      expect((await deliveriesOf(store, webhookId))[0]).toMatchObject({
        status: 'pending',
        last_status_code: 302,
        last_error: 'HTTP 302: redirects are not followed',
      });
    });

    it('keeps at most 4 KiB of a response body, never half a character', async () => {
      // 4095 ASCII bytes, then "é" (2 bytes) straddling the cap, then more.
      receiver.answer = () => ({ status: 500, body: `${'a'.repeat(4095)}é${'b'.repeat(20_000)}` });
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();
      expect((await deliveriesOf(store, webhookId))[0]!.last_response_body).toBe('a'.repeat(4095));

      receiver.answer = () => ({ status: 500, body: 'c'.repeat(10_000) });
      clock.advance(5 * S);
      await deliverer.drain();
      expect((await deliveriesOf(store, webhookId))[0]!.last_response_body).toBe('c'.repeat(4096));
    });
  });

  describe('410 Gone and auto-pause', () => {
    it('410 disables the webhook and fails its pending deliveries; later events are not queued', async () => {
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      receiver.answer = () => ({ status: 500 });
      const first = await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();

      receiver.answer = () => ({ status: 410, body: 'gone for good' });
      const second = await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['disabled']);

      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'disabled', paused_reason: 'gone', version: 2 });
      expect(deliverer.logged).toEqual([
        { level: 'warn', fields: { webhook_id: webhookId }, message: 'webhook disabled: its receiver answered 410 Gone' },
      ]);
      const rows = await deliveriesOf(store, webhookId);
      const byEvent = Object.fromEntries(rows.map((r) => [r.event_id, r]));
      expect(byEvent[first]).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_status_code: 500,
        last_error: 'not sent: the webhook was disabled (its receiver answered 410 Gone)',
        lease: null,
      });
      expect(byEvent[second]).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_status_code: 410,
        last_response_body: 'gone for good',
        last_error: 'HTTP 410 Gone: the webhook is disabled',
      });

      clock.advance(1 * H);
      await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual([]);
      expect(await deliveriesOf(store, webhookId)).toHaveLength(2);
      expect(receiver.received).toHaveLength(2);
    });

    it('a second 410 for a webhook already disabled changes it no more: its owner paused it during both attempts', async () => {
      receiver.answer = () => ({ status: 410 });
      await deliverer.close();
      // Holds every attempt once answered, until released.
      let answered = 0;
      let arrived!: () => void;
      const both = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      deliverer = testDeliverer(
        { store, clock },
        {
          steps: async (step) => {
            if (step.phase !== 'answered') return;
            if (++answered === 2) arrived();
            await gate;
          },
        },
      );
      // A receiver that answered promptly before gets both requests at once.
      const { id: webhookId } = await insertWebhook(store, clock, {
        owner: ALICE,
        url: hook(),
        events: ['booking.created'],
        answersPromptly: true,
      });
      await insertEvent(store, clock, { host: ALICE });
      await insertEvent(store, clock, { host: ALICE });
      const report = await deliverer.step();
      await both;
      // The owner's pause, as PATCH status paused writes it: pending deliveries fail, the ones in flight keep their lease.
      await store.db
        .updateTable('webhooks')
        .set({ status: 'paused', paused_reason: 'owner', version: 2 })
        .where('id', '=', webhookId)
        .execute();
      await store.db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', last_error: 'The webhook was paused by its owner.' })
        .where('webhook_id', '=', webhookId)
        .execute();
      release();
      expect(await report.finished).toEqual(['disabled', 'disabled']);
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'disabled', paused_reason: 'gone', version: 3 });
    });

    it('auto-pauses only when 10 failures in a row span 24 h, and queues the mail to the owner', async () => {
      receiver.answer = () => ({ status: 500 });
      // One at a time, so the order of attempts (and so the count at the pause) is fixed.
      await deliverer.close();
      deliverer = testDeliverer({ store, clock }, { settings: { maxInFlightPerWebhook: 1 } });
      const { id: webhookId } = await insertWebhook(store, clock, {
        owner: ALICE,
        url: hook(),
        events: ['booking.created'],
        description: 'CRM sync',
      });
      const t0 = clock.now();
      for (let i = 0; i < 3; i++) await insertEvent(store, clock, { host: ALICE });

      // Three deliveries, each retried on the schedule: 3 failures at each step of it.
      const steps = [0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H];
      let failures = 0;
      for (const delay of steps) {
        clock.advance(delay);
        expect(await deliverer.drain()).toEqual(['retrying', 'retrying', 'retrying']);
        failures += 3;
        // 12 failures within 36 min, 21 within 17 h 35 min: the count is reached long before the day is.
        expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'active', consecutive_failures: failures });
      }
      expect(failures).toBe(21);
      const notified = await store.db.selectFrom('notifications').selectAll().execute();
      expect(notified).toEqual([]);

      // The last wait ends 27 h 35 min after the first failure: the first attempt then pauses the webhook.
      clock.advance(10 * H);
      expect(await deliverer.drain()).toEqual(['failed']);
      expect(clock.now() - t0).toBeGreaterThanOrEqual(24 * H);
      const paused = await webhookRow(store, webhookId);
      expect(paused).toMatchObject({
        status: 'paused',
        paused_reason: 'failures',
        consecutive_failures: 22,
        failing_since: toTimestamp(t0),
        version: 2,
        updated_at: toTimestamp(clock.now()),
      });
      const rows = await deliveriesOf(store, webhookId);
      expect(rows.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
      expect(rows.map((r) => r.last_error).sort()).toEqual([
        'HTTP 500',
        'not sent: the webhook was paused after failing repeatedly',
        'not sent: the webhook was paused after failing repeatedly',
      ]);
      expect(receiver.received).toHaveLength(22);

      const mail = await store.db.selectFrom('notifications').selectAll().execute();
      expect(mail).toEqual([
        {
          id: mail[0]!.id,
          kind: 'webhook_paused',
          series_uid: null,
          booking_uid: null,
          recipient: 'alice@acme.test',
          payload_json: JSON.stringify({
            webhook_id: webhookId,
            url: hook(),
            description: 'CRM sync',
            failing_since: toTimestamp(t0),
            consecutive_failures: 22,
          }),
          status: 'pending',
          attempts: 0,
          next_attempt_at: toTimestamp(clock.now()),
          created_at: toTimestamp(clock.now()),
          sent_at: null,
        },
      ]);
    });

    it('the thresholds are settings: 3 failures over 1 h', async () => {
      receiver.answer = () => ({ status: 500 });
      await deliverer.close();
      deliverer = testDeliverer({ store, clock }, { settings: { pauseAfterFailures: 3, pauseAfterHours: 1 } });
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      await insertEvent(store, clock, { host: ALICE });
      for (const delay of [0, 5 * S, 5 * M]) {
        clock.advance(delay);
        await deliverer.drain();
      }
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'active', consecutive_failures: 3 });
      clock.advance(30 * M);
      await deliverer.drain();
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'active', consecutive_failures: 4 });
      clock.advance(2 * H);
      await deliverer.drain();
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'paused', paused_reason: 'failures', consecutive_failures: 5 });
      expect(await store.db.selectFrom('notifications').select('kind').execute()).toEqual([{ kind: 'webhook_paused' }]);
    });
  });

  describe('auto-pause at its thresholds exactly', () => {
    const failing = async (settings: { pauseAfterFailures: number; pauseAfterHours: number }) => {
      receiver.answer = () => ({ status: 500 });
      await deliverer.close();
      deliverer = testDeliverer({ store, clock }, { settings });
      return (await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] })).id;
    };

    it('pauses on the failure that reaches the count, and tells the operator', async () => {
      const webhookId = await failing({ pauseAfterFailures: 3, pauseAfterHours: 0 });
      const t0 = clock.now();
      await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['retrying']);
      clock.advance(5 * S);
      expect(await deliverer.drain()).toEqual(['retrying']);
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'active', consecutive_failures: 2 });
      expect(deliverer.logged).toEqual([]);
      clock.advance(5 * M);
      expect(await deliverer.drain()).toEqual(['failed']);
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'paused', paused_reason: 'failures', consecutive_failures: 3 });
      expect(deliverer.logged).toEqual([
        {
          level: 'warn',
          fields: { webhook_id: webhookId, failing_since: toTimestamp(t0), consecutive_failures: 3 },
          message: 'webhook paused after failing repeatedly; its owner is told by mail',
        },
      ]);
    });

    it('pauses on the failure that comes exactly the hours after the first, not a millisecond before', async () => {
      const webhookId = await failing({ pauseAfterFailures: 1, pauseAfterHours: 1 });
      await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['retrying']);
      // The retry, due after 5 s, fails 1 ms short of the hour.
      clock.advance(H - 1);
      expect(await deliverer.drain()).toEqual(['retrying']);
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'active', consecutive_failures: 2 });
      // A new event's first attempt fails at the hour itself.
      clock.advance(1);
      await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['failed']);
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'paused', paused_reason: 'failures', consecutive_failures: 3 });
    });

    it('leaves a webhook its owner paused during the attempt as the owner left it: no auto-pause, no mail', async () => {
      receiver.answer = () => ({ status: 500 });
      await deliverer.close();
      const held = holdAt((step) => step.phase === 'answered');
      // Any failure is enough to auto-pause; one request at a time, so the second delivery waits.
      deliverer = testDeliverer(
        { store, clock },
        { settings: { pauseAfterFailures: 1, pauseAfterHours: 0, maxInFlightPerWebhook: 1 }, steps: held.hook },
      );
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      await insertEvent(store, clock, { host: ALICE });
      await insertEvent(store, clock, { host: ALICE });
      const report = await deliverer.step();
      await held.reached;
      await store.db
        .updateTable('webhooks')
        .set({ status: 'paused', paused_reason: 'owner', version: 2 })
        .where('id', '=', webhookId)
        .execute();
      held.release();
      expect(await report.finished).toEqual(['retrying']);
      expect(await webhookRow(store, webhookId)).toMatchObject({ status: 'paused', paused_reason: 'owner', version: 2 });
      const rows = await deliveriesOf(store, webhookId);
      expect(rows.map((r) => [r.status, r.last_error]).sort()).toEqual([
        ['pending', null],
        ['pending', 'HTTP 500'],
      ]);
      expect(await store.db.selectFrom('notifications').selectAll().execute()).toEqual([]);
      expect(deliverer.logged).toEqual([]);
    });
  });

  describe('owner pause', () => {
    it('events while paused are missed; after resume new events are delivered, and a retry queued before the pause goes out', async () => {
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      const setStatus = (status: 'active' | 'paused') =>
        store.db
          .updateTable('webhooks')
          .set({ status, paused_reason: status === 'paused' ? 'owner' : null })
          .where('id', '=', webhookId)
          .execute();

      receiver.answer = () => ({ status: 500 });
      const before = await insertEvent(store, clock, { host: ALICE });
      await deliverer.drain();

      await setStatus('paused');
      receiver.answer = () => ({ status: 200 });
      const during = await insertEvent(store, clock, { host: ALICE });
      clock.advance(1 * H);
      // The event is dispatched to nobody, and the retry waits.
      expect(await deliverer.drain()).toEqual([]);
      expect((await deliveriesOf(store, webhookId)).map((r) => r.event_id)).toEqual([before]);
      const outbox = await store.db.selectFrom('outbox').select('dispatched_at').where('id', '=', during).executeTakeFirstOrThrow();
      expect(outbox.dispatched_at).toBe(toTimestamp(clock.now()));

      await setStatus('active');
      const after = await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['succeeded', 'succeeded']);
      const events = receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id);
      expect(events.slice(0, 1)).toEqual([before]);
      expect(new Set(events.slice(1))).toEqual(new Set([before, after]));
      expect(events).not.toContain(during);
    });
  });

  describe('what a webhook gets', () => {
    it('only the event types it subscribed to, and only events after it was made', async () => {
      await insertEvent(store, clock, { host: ALICE, type: 'booking.created' });
      clock.advance(1);
      const { id: webhookId } = await insertWebhook(store, clock, {
        owner: ALICE,
        url: hook(),
        events: ['booking.canceled', 'series.paused'],
      });
      await insertEvent(store, clock, { host: ALICE, type: 'booking.created' });
      const canceled = await insertEvent(store, clock, { host: ALICE, type: 'booking.canceled' });
      const paused = await insertEvent(store, clock, { host: ALICE, type: 'series.paused' });
      await insertEvent(store, clock, { host: ALICE, type: 'series.resumed' });
      await deliverer.drain();
      expect(new Set((await deliveriesOf(store, webhookId)).map((r) => r.event_id))).toEqual(new Set([canceled, paused]));
    });

    it('an event whose payload is not JSON goes to no one and does not hold up the events behind it', async () => {
      const { id: webhookId } = await insertWebhook(store, clock, { owner: ALICE, url: hook(), events: ['booking.created'] });
      await store.db
        .insertInto('outbox')
        .values({
          id: 'e-bad',
          event_type: 'booking.created',
          subject_uid: 's',
          payload_json: '{not json',
          created_at: toTimestamp(clock.now()),
          dispatched_at: null,
        })
        .execute();
      clock.advance(1);
      const good = await insertEvent(store, clock, { host: ALICE });
      expect(await deliverer.drain()).toEqual(['succeeded']);
      expect((await deliveriesOf(store, webhookId)).map((r) => r.event_id)).toEqual([good]);
      const bad = await store.db.selectFrom('outbox').select('dispatched_at').where('id', '=', 'e-bad').executeTakeFirstOrThrow();
      expect(bad.dispatched_at).toBe(toTimestamp(clock.now()));
    });

    it("a plain user's webhook never gets another user's booking; a manager's gets whom they manage; admin and owner get all", async () => {
      const webhooks = Object.fromEntries(
        await Promise.all(
          Object.entries({ alice: ALICE, ada: ADA, mia: MIA, ursula: URSULA, oscar: OSCAR }).map(async ([name, owner]) => {
            const { id } = await insertWebhook(store, clock, { owner, url: hook(`/${name}`), events: ['booking.updated'] });
            return [name, id] as const;
          }),
        ),
      );
      // Real changes through the operation, so the payloads are the bookings as the API shows them.
      const deps = testDeps(store, clock);
      const alice = await principalOf({ store, clock }, SECRET.aliceAll);
      for (const uid of [B_ALICE, B_URSULA, B_OSCAR]) {
        const { outcome } = await execute(
          deps,
          updateBookingOperation,
          alice,
          { params: { uid }, query: {}, body: { metadata: { round: 1 } }, idempotencyKey: `k-${uid}`, ifMatch: '"1"' },
          `req-${uid}`,
        );
        expect(outcome.status).toBe(200);
      }
      await deliverer.drain();

      const seen = async (name: string) => {
        const rows = await deliveriesOf(store, webhooks[name]!);
        return rows.map((r) => (JSON.parse(r.payload_json) as { data: { uid: string } }).data.uid).sort();
      };
      expect(await seen('alice')).toEqual([B_ALICE, B_URSULA, B_OSCAR].sort());
      expect(await seen('ada')).toEqual([B_ALICE, B_URSULA, B_OSCAR].sort());
      expect(await seen('mia')).toEqual([B_URSULA]);
      expect(await seen('ursula')).toEqual([B_URSULA]);
      expect(await seen('oscar')).toEqual([B_OSCAR]);
      const byPath = (path: string) =>
        receiver.received.filter((r) => r.path === path).map((r) => (JSON.parse(r.body) as { data: { uid: string } }).data.uid);
      expect(byPath('/oscar')).toEqual([B_OSCAR]);
      expect(byPath('/ursula')).toEqual([B_URSULA]);
      expect(receiver.received).toHaveLength(9);
    });
  });
});
