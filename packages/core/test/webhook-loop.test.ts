import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { Store } from '../src/storage/store.js';
import type { DeliveryOutcome, DeliveryStep } from '../src/webhooks/delivery/delivery-deps.js';
import { startWebhookDelivery } from '../src/webhooks/delivery/delivery-loop.js';
import { webhookHttpClient } from '../src/webhooks/delivery/http-client.js';
import { ALICE, loadOrganization } from './support/organization.js';
import { storeFixtures } from './support/stores.js';
import { deliveriesOf, insertEvent, insertWebhook, type Receiver, startReceiver } from './support/webhooks.js';

// The background loop `schedule serve` runs: it delivers without being
// stepped, survives a failing step (logged, tried again), and stops cleanly.
// It runs on timers, so the test waits on the receiver, never on a clock.

describe.each(storeFixtures())('the delivery loop on $name', (fixture) => {
  let store: Store;
  let receiver: Receiver;

  beforeAll(async () => {
    store = await fixture.open();
    await loadOrganization({ store, clock: systemClock });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await fixture.cleanup();
  });

  it('a step that throws is logged and tried again; the event is delivered once; stop() ends it', async () => {
    const { id } = await insertWebhook(store, systemClock, { owner: ALICE, url: `${receiver.url}/hook`, events: ['booking.created'] });
    const warnings: string[] = [];
    const outcomes: DeliveryOutcome[] = [];
    let failures = 1;
    let recorded!: () => void;
    const firstOutcome = new Promise<void>((resolve) => {
      recorded = resolve;
    });
    const http = webhookHttpClient({ allowPrivateTargets: true });
    const loop = startWebhookDelivery(
      {
        store,
        clock: systemClock,
        ids: randomIds,
        http,
        logger: { info: () => {}, warn: (_, message) => warnings.push(message) },
        // The first fan-out fails inside its transaction, as a database error would.
        steps: async (step: DeliveryStep) => {
          if (step.phase === 'events-claimed' && failures-- > 0) throw new Error('the database went away');
        },
        onOutcome: (outcome) => {
          outcomes.push(outcome);
          recorded();
        },
      },
      { intervalMs: 5, errorBackoffMs: 10 },
    );
    await insertEvent(store, systemClock, { host: ALICE });
    await firstOutcome;
    await loop.stop();
    await http.close();

    expect(warnings).toEqual(['webhook delivery step failed; will retry']);
    expect(outcomes).toEqual(['succeeded']);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(store, id)).map((d) => d.status)).toEqual(['succeeded']);
  });
});
