import type { IncomingMessage } from 'node:http';
import { ScheduleError } from '@schedule/core';

/** decisions.md "Limits and envelopes": bodies over 1 MiB are refused. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a JSON body. Over the limit is `413 payload_too_large` (checked from
 * Content-Length first, then while reading); text that is not JSON is
 * `400 validation_error`. An empty body is `undefined`.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new ScheduleError('validation_error', 'The request body is not valid JSON.', { fields: [] });
  }
}

function tooLarge(): ScheduleError {
  return new ScheduleError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`, { max_bytes: MAX_BODY_BYTES });
}
