import { lookup } from 'node:dns/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ManualClock, manualClock } from '../src/clock.js';
import type { Store } from '../src/storage/store.js';
import { toTimestamp } from '../src/time.js';
import { ALICE, loadOrganization } from './support/organization.js';
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

// With the default setting a webhook cannot reach the server's own host or
// the network around it: the address is checked when the connection is
// made, after DNS, so a name that resolves to loopback is refused as surely
// as the literal. A receiver listens on loopback (IPv4 and IPv6) throughout,
// and must see neither a request nor a connection.

const T0 = '2026-03-02T08:00:00.000Z';
/** What this machine resolves localhost to (127.0.0.1, ::1 or both, in its order), as the refusal names it. */
const LOCALHOST = (await lookup('localhost', { all: true })).map((a) => `${a.address} (a loopback address)`).join(', ');
const HINT = 'webhook targets must be public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private ones)';

describe.each(storeFixtures())('webhook targets on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let receiver: Receiver;
  let deliverer: TestDeliverer;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(T0);
    await loadOrganization({ store, clock });
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    await store.db.deleteFrom('webhook_deliveries').execute();
    await store.db.deleteFrom('webhooks').execute();
    receiver.received.length = 0;
    receiver.connections = 0;
  });
  afterEach(() => deliverer.close());
  afterAll(async () => {
    await receiver?.close();
    await fixture.cleanup();
  });

  const attempt = async (url: string) => {
    const { id } = await insertWebhook(store, clock, { owner: ALICE, url, events: ['booking.created'] });
    await insertEvent(store, clock, { host: ALICE });
    const outcomes = await deliverer.drain();
    const [row] = await deliveriesOf(store, id);
    return { outcomes, row: row! };
  };

  describe('the default: private targets refused', () => {
    beforeEach(() => {
      deliverer = testDeliverer({ store, clock }, { allowPrivateTargets: false });
    });

    it.each([
      ['http://127.0.0.1:PORT/hook', '127.0.0.1 is a loopback address'],
      ['http://[::1]:PORT/hook', '::1 is a loopback address'],
      ['http://localhost:PORT/hook', `localhost resolves to ${LOCALHOST}`],
      ['http://10.0.0.1:PORT/hook', '10.0.0.1 is a private address'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
      ['http://[::ffff:127.0.0.1]:PORT/hook', '::ffff:7f00:1 is a loopback address'],
      ['http://0.0.0.0:PORT/hook', '0.0.0.0 is an unspecified address'],
    ])('%s is refused before connecting', async (template, why) => {
      const { outcomes, row } = await attempt(template.replace('PORT', String(receiver.port)));
      expect(outcomes).toEqual(['retrying']);
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 1,
        next_attempt_at: toTimestamp(clock.now() + 5000),
        last_status_code: null,
        last_response_body: null,
        last_error: `refused: ${why}; ${HINT}`,
      });
      expect(receiver.received).toEqual([]);
      expect(receiver.connections).toBe(0);
    });

    it('a scheme other than http(s) is refused', async () => {
      const { row } = await attempt(`ftp://127.0.0.1:${receiver.port}/hook`);
      expect(row.last_error).toBe('unsupported protocol ftp:; webhook targets must be http or https');
      expect(receiver.connections).toBe(0);
    });
  });

  describe('WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
    beforeEach(() => {
      deliverer = testDeliverer({ store, clock }, { allowPrivateTargets: true });
    });

    it.each(['http://127.0.0.1:PORT/hook', 'http://localhost:PORT/hook', 'http://[::1]:PORT/hook'])('lets %s through', async (template) => {
      const { outcomes, row } = await attempt(template.replace('PORT', String(receiver.port)));
      expect(outcomes).toEqual(['succeeded']);
      expect(row).toMatchObject({ status: 'succeeded', last_status_code: 200, last_error: null });
      expect(receiver.received).toHaveLength(1);
    });
  });
});
