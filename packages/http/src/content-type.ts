import type { IncomingMessage } from 'node:http';
import { ScheduleError } from '@schedule/core';

/** True when the request carries a body (RFC 9112 section 6.3: a length, or a transfer coding). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `application/json`, or a `+json` type, whatever its parameters (charset). */
function isJson(contentType: string): boolean {
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/**
 * A body on a JSON endpoint must say it is JSON: anything else (a form post,
 * text, no Content-Type at all) is `415 unsupported_media_type` before it is
 * read, so a client that sent the wrong thing learns it instead of having it
 * parsed as JSON by accident.
 */
export function checkJsonContentType(req: IncomingMessage): void {
  if (!hasBody(req)) return;
  const contentType = req.headers['content-type'];
  if (contentType !== undefined && isJson(contentType)) return;
  throw new ScheduleError(
    'unsupported_media_type',
    contentType === undefined
      ? 'A request body needs Content-Type: application/json.'
      : `Content-Type ${contentType} is not accepted here; send application/json.`,
    { accepted: ['application/json'] },
  );
}
