import { connect } from 'node:net';

// HTTP/1.1 over a plain socket, one request per connection, for requests that
// `fetch` would refuse to send or quietly repair: malformed request lines,
// unknown methods, oversized or odd headers, bodies with any bytes. The answer
// is parsed leniently, so that whatever the server does (an envelope, a bare
// status line, a silent close) can be judged by the test rather than the client.

/** A response as it came off the wire. */
export interface RawResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

/** How an exchange ended, and the final (non-1xx) response if one was read whole. */
export interface RawAnswer {
  /** `complete`: a whole response was read. Otherwise why reading stopped without one. */
  readonly ending: 'complete' | 'closed' | 'reset' | 'timeout';
  readonly response: RawResponse | undefined;
  /** Every byte the server sent, interim responses included. */
  readonly received: Buffer;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Decodes a chunked body (RFC 9112 section 7.1); undefined until the last chunk has arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * The final response in `data`, if it is all there. A response without length
 * or chunking runs to the end of the connection, so it is whole only once `ended`.
 */
export function parseRawResponse(data: Buffer, options: { bodiless: boolean; ended: boolean }): RawResponse | undefined {
  let rest = data;
  for (;;) {
    const headEnd = rest.indexOf(HEAD_END);
    if (headEnd < 0) return undefined;
    const [statusLine = '', ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
    if (Number.isNaN(status)) return undefined;
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
    }
    const after = rest.subarray(headEnd + HEAD_END.length);
    // 1xx answers (100 Continue) precede the final response on the same connection.
    if (status >= 100 && status < 200) {
      rest = after;
      continue;
    }
    if (options.bodiless || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    const length = headers.get('content-length');
    if (length !== undefined) {
      const n = Number(length);
      return after.length >= n ? { status, headers, body: after.subarray(0, n) } : undefined;
    }
    if (headers.get('transfer-encoding')?.toLowerCase().includes('chunked')) {
      const body = dechunk(after);
      return body ? { status, headers, body } : undefined;
    }
    return options.ended ? { status, headers, body: after } : undefined;
  }
}

/**
 * Sends `request` as is on a new connection to `baseUrl` and reads one answer.
 * `bodiless` says the answer has no body whatever its headers say (a HEAD).
 */
export function exchange(baseUrl: string, request: Buffer, options: { bodiless: boolean; timeoutMs: number }): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (ending: RawAnswer['ending']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const received = Buffer.concat(chunks);
      const response = parseRawResponse(received, { bodiless: options.bodiless, ended: ending !== 'timeout' });
      resolve({ ending: response ? 'complete' : ending, response, received });
    };
    const timer = setTimeout(() => finish('timeout'), options.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseRawResponse(Buffer.concat(chunks), { bodiless: options.bodiless, ended: false })) finish('complete');
    });
    socket.on('end', () => finish('closed'));
    socket.on('close', () => finish('closed'));
    // A reset (the server closed with our bytes unread) may drop an answer it did send.
    socket.on('error', () => finish('reset'));
    socket.write(request);
  });
}
