import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { type ErrorCode, ScheduleError } from '@schedule/core';
import { errorEnvelope } from './respond.js';
import { HTTP_STATUS } from './status-codes.js';

const REASONS: Partial<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Writes an error in the common envelope straight to a socket that has no
 * response object, then closes it. Destroyed once the answer is handed to the
 * kernel, not merely ended: an HTTP server socket allows half-open
 * connections, and a client that never reads would otherwise hold it open for good.
 */
function writeRawError(socket: Duplex, error: ScheduleError, requestId: string, options: { head?: boolean } = {}): void {
  const status = HTTP_STATUS[error.code];
  const body = JSON.stringify(errorEnvelope(error, requestId));
  const answer = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    // A HEAD answer states the length a GET's body would have, and sends none (RFC 9110 sections 9.3.2, 8.6).
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    options.head ? '' : body,
  ].join('\r\n');
  socket.end(answer, () => socket.destroy());
}

/**
 * Whether the refused request is a HEAD, read from the bytes the parser
 * refused (`rawPacket`, the chunk it was reading): its request line when
 * the whole head came in one read, as it does for a head the size of the
 * limit. A request line that is not in that chunk reads as not a HEAD, and
 * is answered with the body, which the closing connection then ends.
 */
function isHead(error: Error & { rawPacket?: unknown }): boolean {
  return Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
}

/** What a refusal of Node's HTTP parser means for the client, by the parser's error code. */
function refusalOf(code: string | undefined): ScheduleError {
  const [errorCode, message]: [ErrorCode, string] =
    code === 'HPE_HEADER_OVERFLOW'
      ? ['headers_too_large', 'The request headers are too large.']
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'The request did not arrive in time.']
        : code === 'HPE_INVALID_METHOD'
          ? ['bad_request', 'The request method is not an HTTP method this server knows.']
          : ['bad_request', 'The request is not valid HTTP/1.1.'];
  return new ScheduleError(errorCode, message);
}

/**
 * Node's `clientError`: a request its parser refused (oversized headers, an
 * unknown method, malformed syntax) or one that timed out. There is no
 * request object, so the answer is written to the socket by hand, in the
 * common error envelope with an `X-Request-Id`, and the connection closes.
 * A socket that is gone, or that already carries a response, is only closed.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Duplex,
  newRequestId: () => string = randomUUID,
): void {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  writeRawError(socket, refusalOf(error.code), newRequestId(), { head: isHead(error) });
}

/**
 * Node's `connect`: a CONNECT request (a proxy tunnel). This server is no
 * proxy; without this the socket would close with no answer at all.
 */
export function answerConnect(socket: Duplex, newRequestId: () => string = randomUUID): void {
  socket.on('error', () => {});
  writeRawError(socket, new ScheduleError('bad_request', 'CONNECT is not supported: this server is not a proxy.'), newRequestId());
}
