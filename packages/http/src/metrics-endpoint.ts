import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerSecret, ScheduleError } from '@schedule/core';
import type { AppMetrics } from './app-metrics.js';
import { sendError } from './respond.js';

/** Where Prometheus scrapes; like the probes, no rate limit and no API token. */
export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Answers `GET /metrics` with the exposition. With a `token`, the scraper
 * must send `Authorization: Bearer <token>` (else `401 unauthorized`); it is
 * compared in constant time, through digests of equal length.
 */
export function metricsEndpoint(metrics: AppMetrics, token: string | undefined) {
  const expected = token ? digest(token) : undefined;
  return async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<number> => {
    if (expected) {
      const sent = bearerSecret(req.headers.authorization);
      if (!sent || !timingSafeEqual(digest(sent), expected)) {
        const message = sent ? 'The metrics token is not valid.' : 'Authentication required: send Authorization: Bearer <METRICS_TOKEN>.';
        return sendError(res, new ScheduleError('unauthorized', message), requestId);
      }
    }
    const text = await metrics.scrape();
    res.statusCode = 200;
    res.setHeader('Content-Type', metrics.contentType);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
    return 200;
  };
}
