import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from './build-app.js';

export interface RunningServer {
  readonly server: Server;
  /** `http://HOST:PORT` as bound; port 0 resolved to the real one. */
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Starts an HTTP server on host:port (0 picks a free port). */
export async function listen(handler: RequestHandler, options: { host: string; port: number }): Promise<RunningServer> {
  const server = createServer({ keepAliveTimeout: 5000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would hold close() open; busy ones finish first.
        server.closeIdleConnections();
      }),
  };
}
