import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from './build-app.js';
import { answerClientError, answerConnect } from './client-error.js';
import { MAX_BODY_BYTES } from './read-body.js';

export interface RunningServer {
  readonly server: Server;
  /** `http://HOST:PORT` as bound; port 0 resolved to the real one. */
  readonly url: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/**
 * What a connection may cost. Every socket is bounded in time and in number,
 * so that idle or slow clients cannot hold the file descriptors that real
 * clients need (the failure a flood of silent connections causes).
 */
export interface ConnectionLimits {
  /** A connection must finish sending a request's headers within this (also a new, silent one). */
  readonly headersTimeoutMs: number;
  /** A request must arrive whole (headers and body) within this. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** Connections open at once; more are closed on arrival. */
  readonly maxConnections: number;
  /** Request header bytes; more is `431 headers_too_large`. */
  readonly maxHeaderBytes: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 5000,
  // A 1 MiB body needs only a slow link's few seconds; 300 s (Node's default) let one slow client hold a socket for minutes.
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 4096,
  maxHeaderBytes: 16 * 1024,
};

/** Starts an HTTP server on host:port (0 picks a free port). */
export async function listen(
  handler: RequestHandler,
  options: {
    host: string;
    port: number;
    limits?: Partial<ConnectionLimits> | undefined;
    /** Makes the X-Request-Id of an answer written without a request (a refused or timed-out one). */
    requestIds?: (() => string) | undefined;
  },
): Promise<RunningServer> {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // How often Node checks the two timeouts above; its default (30 s) would let a silent socket live that long.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs / 2),
      // Node would answer a missing Host with a bare 400; the app answers it in the envelope.
      requireHostHeader: false,
    },
    handler,
  );
  server.maxConnections = limits.maxConnections;
  // A request Node's parser refuses (or that timed out) is answered in the error envelope where the socket allows.
  server.on('clientError', (error: Error & { code?: string }, socket) => answerClientError(error, socket, options.requestIds));
  server.on('connect', (_req, socket) => answerConnect(socket, options.requestIds));
  // An Expect other than 100-continue: the app answers 417 in the envelope (Node's own answer has no body).
  server.on('checkExpectation', handler);
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
