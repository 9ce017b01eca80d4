import type { IncomingMessage } from 'node:http';
import { ScheduleError } from '@schedule/core';

/** docs/api/requests.md "Request limits": bodies over 1 MiB are refused. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this much, an oversized body is not worth draining: the connection is dropped. */
const MAX_DRAIN_BYTES = 64 * MAX_BODY_BYTES;

/**
 * Reads a JSON body. Over the limit is `413 payload_too_large` (known from
 * Content-Length up front, else while reading); text that is not JSON is
 * `400 validation_error`. An empty body is `undefined`.
 *
 * An oversized body is still read to its end and thrown away, so a client
 * that is still sending receives the 413 instead of a reset connection; see
 * `lingerAfterRefusal` for one that stops sending.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    if (refused) reject(tooLarge());
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) req.destroy();
      if (refused) return;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (refused) return;
      if (size === 0) return resolve(undefined);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new ScheduleError('validation_error', 'The request body is not valid JSON.', { fields: [] }));
      }
    });
  });
}

/** How long a refused request may go on sending before its connection is dropped. */
const LINGER_MS = 1000;

/**
 * After a 413, waits briefly for the rest of the refused body (drained by the
 * reader above), then drops the connection if it has not come: a client that
 * stopped sending must not hold the socket (nginx calls this lingering close).
 */
export function lingerAfterRefusal(req: IncomingMessage): void {
  if (req.complete) return;
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
}

function tooLarge(): ScheduleError {
  return new ScheduleError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`, { max_bytes: MAX_BODY_BYTES });
}
