import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can
 * break on purpose, the way a network does:
 * - `drop()`: every open connection is reset, and new ones are reset on arrival;
 * - `hang()`: nothing flows any more, in either direction, on open or new
 *   connections, and nothing is closed (a partition, or a server that froze);
 * - `restore()`: new connections flow again. Connections that lived through
 *   a hang stay dead, as sessions do after a real partition: the client has to
 *   notice and open new ones.
 */
export interface FaultProxy {
  /** The port to point the client at, on 127.0.0.1. */
  readonly port: number;
  /** Replaces host:port in a URL with the proxy's. */
  via(url: string): string;
  drop(): void;
  hang(): void;
  restore(): void;
  /** Connections open through the proxy now. */
  openConnections(): number;
  close(): Promise<void>;
}

type Mode = 'pass' | 'drop' | 'hang';

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket | undefined;
  /** True once the pair has lived through a hang: it never flows again. */
  frozen: boolean;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: Mode = 'pass';
  const pairs = new Set<Pair>();

  const reset = (pair: Pair) => {
    pair.client.resetAndDestroy();
    pair.upstream?.resetAndDestroy();
    pairs.delete(pair);
  };

  const server: Server = createServer((client) => {
    client.on('error', () => {});
    if (mode === 'drop') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'hang') {
      // Accepted, never answered: bytes sent are read and thrown away.
      const pair: Pair = { client, upstream: undefined, frozen: true };
      pairs.add(pair);
      client.on('data', () => {});
      client.on('close', () => pairs.delete(pair));
      return;
    }
    const upstream = tcpConnect(target.port, target.host);
    upstream.on('error', () => {});
    const pair: Pair = { client, upstream, frozen: false };
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (!pair.frozen) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    // The client giving up always ends the pair; the server going away reaches
    // the client only while the pair still flows (a hung network carries no FIN).
    client.on('close', () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    upstream.on('close', () => {
      if (!pair.frozen) client.destroy();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fault proxy: no port');
  const port = address.port;

  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    drop() {
      mode = 'drop';
      for (const pair of [...pairs]) reset(pair);
    },
    hang() {
      mode = 'hang';
      for (const pair of pairs) pair.frozen = true;
    },
    restore() {
      mode = 'pass';
    },
    openConnections: () => pairs.size,
    async close() {
      for (const pair of [...pairs]) reset(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
