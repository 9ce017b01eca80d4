import { connect, type Socket } from 'node:net';
import type { ApiResponse } from './http.js';

// HTTP/1.1 over a plain socket, for the exchanges `fetch` cannot order: a
// request whose body is held back (`Expect: 100-continue`), or cut short.

/** Opens a TCP connection to the server behind `baseUrl`. */
export async function openSocket(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** The request head: request line, headers, blank line. */
export function requestHead(method: string, path: string, headers: Record<string, string>): string {
  return [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
}

/** Reads from a socket until `done(text)` holds or the socket ends; resolves with all text read. */
export function readUntil(socket: Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = () => {
      socket.off('data', onData);
      socket.off('end', finish);
      socket.off('error', reject);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (done(text)) finish();
    };
    socket.on('data', onData);
    socket.once('end', finish);
    socket.once('error', reject);
  });
}

/** Parses the final response out of everything a connection answered (1xx interim responses skipped). */
export function parseResponse(text: string): ApiResponse {
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`no complete response in: ${text.slice(0, 200)}`);
    const [statusLine, ...headerLines] = rest.slice(0, headEnd).split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1]);
    rest = rest.slice(headEnd + 4);
    if (status >= 100 && status < 200) continue;
    const headers = new Headers();
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const length = Number(headers.get('content-length') ?? rest.length);
    const body = rest.slice(0, length);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    return { status, headers, text: body, body: parsed, elapsedMs: 0 };
  }
}
