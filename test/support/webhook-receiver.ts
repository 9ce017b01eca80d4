import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery attempt as a receiver saw it. */
export interface Arrival {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The `webhook-id` header: the delivery, the same on every attempt. */
  readonly id: string;
  /** The envelope's event id and type. */
  readonly eventId: string;
  readonly type: string;
}

/**
 * A webhook receiver on loopback answering 200 at once, as a service
 * integrating with schedule would run one. `changed()` resolves at the next
 * arrival, so a test waits on deliveries, never on a timer.
 */
export interface WebhookReceiver {
  readonly url: string;
  readonly arrivals: Arrival[];
  /** Resolves at the next arrival. */
  changed(): Promise<void>;
  /** From now on, requests are recorded but not answered, until `release()`. */
  hold(): void;
  /** Requests held unanswered now. */
  held(): number;
  /** Answers every held request (200) and answers at once again. */
  release(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrivals: Arrival[] = [];
  let holding = false;
  const heldResponses: ServerResponse[] = [];
  let wake: () => void = () => {};
  let next = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const envelope = JSON.parse(body) as { id: string; type: string };
      arrivals.push({
        path: req.url ?? '',
        headers: req.headers,
        body,
        id: String(req.headers['webhook-id']),
        eventId: envelope.id,
        type: envelope.type,
      });
      if (holding) heldResponses.push(res);
      else res.writeHead(200).end();
      const done = wake;
      next = new Promise<void>((resolve) => {
        wake = resolve;
      });
      done();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    changed: () => next,
    hold: () => {
      holding = true;
    },
    held: () => heldResponses.length,
    release: () => {
      holding = false;
      // A held request of a process killed since has no socket left; writing to it does nothing.
      for (const res of heldResponses.splice(0)) if (!res.destroyed) res.writeHead(200).end();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
