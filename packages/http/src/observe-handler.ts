import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppMetrics } from './app-metrics.js';

type AsyncHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Counts and times the requests of a handler mounted beside the app (the MCP
 * endpoint) in the app's metrics, under the route `routeOf` names. A request
 * is observed once the handler is done and the response closed, so its
 * status is the one sent. `handler` must not reject.
 */
export function observeHandler(metrics: AppMetrics, routeOf: (req: IncomingMessage) => string, handler: AsyncHandler): AsyncHandler {
  return async (req, res) => {
    const started = performance.now();
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    await handler(req, res);
    await closed;
    metrics.observeRequest(routeOf(req), res.statusCode, (performance.now() - started) / 1000);
  };
}
