import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { Store } from '../../src/storage/store.js';
import { toTimestamp } from '../../src/time.js';
import type { DeliveryOutcome, DeliveryStep, WebhookDeliverySettings } from '../../src/webhooks/delivery/delivery-deps.js';
import { webhookHttpClient } from '../../src/webhooks/delivery/http-client.js';
import { createWebhookDeliverer, type WebhookDeliverer } from '../../src/webhooks/delivery/webhook-deliverer.js';

// Until the management operations exist, suites make webhooks by writing
// their rows, as the create operation would.

/** A new signing secret in the Standard Webhooks shape: `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface WebhookRow {
  id?: string;
  owner: string;
  url: string;
  events: readonly string[];
  secret?: string;
  previousSecret?: string | null;
  previousSecretUntil?: string | null;
  status?: 'active' | 'paused' | 'disabled';
  pausedReason?: 'owner' | 'failures' | 'gone' | null;
  description?: string | null;
  /** Defaults to the clock's now. */
  createdAt?: string;
  /** Its receiver answered promptly before, as a webhook delivering for a while has: four requests at once, not one. */
  answersPromptly?: boolean;
  /** Backed off until then, after a request timed out. */
  backoffUntil?: string | null;
}

/** Inserts a webhook; returns its id and secret. */
export async function insertWebhook(store: Store, clock: Clock, row: WebhookRow): Promise<{ id: string; secret: string }> {
  const id = row.id ?? randomIds.uuid();
  const secret = row.secret ?? newSecret();
  const at = row.createdAt ?? toTimestamp(clock.now());
  await store.db
    .insertInto('webhooks')
    .values({
      id,
      owner_user_id: row.owner,
      url: row.url,
      events_json: JSON.stringify(row.events),
      description: row.description ?? null,
      secret,
      previous_secret: row.previousSecret ?? null,
      previous_secret_until: row.previousSecretUntil ?? null,
      status: row.status ?? 'active',
      paused_reason: row.pausedReason ?? null,
      answers_promptly: row.answersPromptly ? 1 : 0,
      backoff_until: row.backoffUntil ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { id, secret };
}

/** Writes an outbox event as recordEvent does, with a payload naming its host; returns its id. */
export async function insertEvent(
  store: Store,
  clock: Clock,
  event: { type?: string; host: string; uid?: string; data?: Record<string, unknown> },
): Promise<string> {
  const id = randomIds.uuid();
  const uid = event.uid ?? randomIds.uuid();
  await store.db
    .insertInto('outbox')
    .values({
      id,
      event_type: event.type ?? 'booking.created',
      subject_uid: uid,
      payload_json: JSON.stringify({ uid, host: { user_id: event.host }, ...event.data }),
      created_at: toTimestamp(clock.now()),
      dispatched_at: null,
    })
    .execute();
  return id;
}

/** One request the receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the receiver answers a request: a status with headers and body, or never (the socket is held open). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A real HTTP server on loopback (both IPv4 and IPv6), recording every
 * request before answering it, so once a delivery's attempt has ended the
 * request is in `received`. `answer` decides each response; it may be changed
 * between steps. `connections` counts TCP connections accepted, so a test can
 * show that a refused target was never connected to.
 */
export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  connections: number;
  answer: (request: Received) => Answer;
  /** Resolves once `count` requests have arrived (requests are in flight when a step returns). */
  whenReceived(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (request: Received) => Answer = () => ({ status: 200 })): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const waiting: { count: number; resolve: () => void }[] = [];
  const wake = () => {
    for (const w of waiting.filter((w) => receiver.received.length >= w.count)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    connections: 0,
    answer,
    whenReceived: (count) =>
      new Promise((resolve) => {
        waiting.push({ count, resolve });
        wake();
      }),
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got: Received = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.received.push(got);
      wake();
      const reply = receiver.answer(got);
      if (reply === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(reply.status, reply.headers ?? {});
      response.end(reply.body ?? '');
    });
  });
  server.on('connection', () => {
    receiver.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, { port, url: `http://127.0.0.1:${port}` });
}

export interface TestDeliverer extends WebhookDeliverer {
  /** Every outcome, in the order attempts ended. */
  readonly outcomes: DeliveryOutcome[];
  /** What it told the operator, in order: the level, the fields and the words. */
  readonly logged: { level: 'info' | 'warn'; fields: object; message: string }[];
  /** Steps until nothing is left to fan out or start, awaiting every delivery started; returns the outcomes of this drain. */
  drain(): Promise<DeliveryOutcome[]>;
  /** Steps once, then again each time a delivery ends (a slot frees), until `count` attempts in all have succeeded. */
  stepUntilSucceeded(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A deliverer over the real undici client, loopback allowed unless said otherwise. */
export function testDeliverer(
  deps: { store: Store; clock: Clock },
  options: {
    allowPrivateTargets?: boolean;
    settings?: Partial<WebhookDeliverySettings>;
    timeoutMs?: number;
    steps?: Parameters<typeof createWebhookDeliverer>[0]['steps'];
  } = {},
): TestDeliverer {
  const http = webhookHttpClient({
    allowPrivateTargets: options.allowPrivateTargets ?? true,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const outcomes: DeliveryOutcome[] = [];
  const logged: TestDeliverer['logged'] = [];
  const deliverer = createWebhookDeliverer({
    ...deps,
    ids: randomIds,
    http,
    logger: {
      info: (fields, message) => logged.push({ level: 'info', fields, message }),
      warn: (fields, message) => logged.push({ level: 'warn', fields, message }),
    },
    settings: options.settings,
    steps: options.steps,
    onOutcome: (outcome) => outcomes.push(outcome),
  });
  return {
    ...deliverer,
    outcomes,
    logged,
    async drain() {
      const all: DeliveryOutcome[] = [];
      for (;;) {
        const report = await deliverer.step();
        all.push(...(await report.finished));
        if (report.events === 0 && report.started === 0) return all;
      }
    },
    async stepUntilSucceeded(count) {
      await deliverer.step();
      while (outcomes.filter((o) => o === 'succeeded').length < count) {
        await deliverer.nextSettled();
        await deliverer.step();
      }
    },
    async close() {
      await deliverer.stop();
      await http.close();
    },
  };
}

/** A webhook's deliveries, oldest first. */
export function deliveriesOf(store: Store, webhookId: string) {
  return store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at')
    .orderBy('event_id')
    .execute();
}

export function webhookRow(store: Store, id: string) {
  return store.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A step hook that holds the first step matching `match` until released. */
export function holdAt(match: (step: DeliveryStep) => boolean) {
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
