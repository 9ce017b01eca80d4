import type { IncomingMessage } from 'node:http';
import { ScheduleError } from '@schedule/core';

/** docs/api/requests.md "Request limits": bodies over 1 MiB are refused. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this many times the limit, an oversized body is not worth draining: the connection is dropped. */
const DRAIN_FACTOR = 64;

/**
 * Reads a JSON body. Over the limit is `413 payload_too_large` (known from
 * Content-Length up front, else while reading); text that is not JSON is
 * `400 validation_error`. An empty body is `undefined`.
 *
 * An oversized body is still read to its end and thrown away, so a client
 * that is still sending receives the 413 instead of a reset connection; see
 * `lingerAfterRefusal` for one that stops sending.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, MAX_BODY_BYTES, tooLarge);
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ScheduleError('validation_error', 'The request body is not valid JSON.', { fields: [] });
  }
}

/**
 * Reads a body of at most `maxBytes`, else rejects with `tooLarge()`: known
 * from Content-Length up front, else while reading. The rest of an oversized
 * body is still read and thrown away (up to 64 times the limit), so the
 * client receives the refusal rather than a reset connection.
 */
export function readBody(req: IncomingMessage, maxBytes: number, tooLarge: () => ScheduleError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = Number(req.headers['content-length'] ?? 0) > maxBytes;
    if (refused) reject(tooLarge());
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes * DRAIN_FACTOR) req.destroy();
      if (refused) return;
      if (size > maxBytes) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks));
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
