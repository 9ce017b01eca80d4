import type { ServerResponse } from 'node:http';
import { etagOf, type Outcome, type ScheduleError } from '@schedule/core';
import { HTTP_WORDS } from './http-words.js';
import { HTTP_STATUS } from './status-codes.js';
import { bearerChallenge } from './www-authenticate.js';

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** A success in the common envelope (docs/api/overview.md "The envelope"). */
export function sendOutcome(res: ServerResponse, outcome: Outcome, requestId: string): void {
  if (outcome.version !== undefined) res.setHeader('ETag', etagOf(outcome.version));
  if (outcome.location !== undefined) res.setHeader('Location', outcome.location);
  const meta: Record<string, unknown> = { request_id: requestId };
  if (outcome.page) {
    meta.next_cursor = outcome.page.nextCursor;
    meta.has_more = outcome.page.hasMore;
  }
  send(res, outcome.status, { data: outcome.data, meta });
}

/** The common error envelope (docs/api/errors.md), in the HTTP API's words. */
export function errorEnvelope(error: ScheduleError, requestId: string) {
  return { error: { ...error.shownIn(HTTP_WORDS), request_id: requestId } };
}

/** An error in the common envelope, with the headers its code calls for. */
export function sendError(res: ServerResponse, error: ScheduleError, requestId: string): number {
  const status = HTTP_STATUS[error.code];
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  // A front end that knows more (the resource metadata URL) sets its own challenge first.
  if (!res.hasHeader('WWW-Authenticate')) {
    const challenge = bearerChallenge(error, {});
    if (challenge) res.setHeader('WWW-Authenticate', challenge);
  }
  send(res, status, errorEnvelope(error, requestId));
  return status;
}
