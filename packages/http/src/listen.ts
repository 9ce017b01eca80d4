import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from './build-app.js';
import { MAX_BODY_BYTES } from './read-body.js';

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
  // A client that asks before sending a large body (`Expect: 100-continue`)
  // is refused before it sends it, and the connection closes after the 413.
  server.on('checkContinue', (req, res) => {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) res.setHeader('Connection', 'close');
    else res.writeContinue();
    handler(req, res);
  });
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
