import type { IncomingMessage } from 'node:http';

/**
 * The status a request's log line and metrics give a request whose client
 * closed the connection before it was answered: nginx's "client closed
 * request". It is never sent; there is no one left to send it to.
 */
export const CLIENT_CLOSED_STATUS = 499;

/**
 * True when `error` is the request's own stream failing because its client
 * went away before sending all of it (Node's `aborted`, ECONNRESET): the
 * client's doing, not a fault of this server, so it is no error to log.
 */
export function closedByClient(req: IncomingMessage, error: unknown): boolean {
  return !req.complete && req.destroyed && (error as { code?: unknown } | null)?.code === 'ECONNRESET';
}
