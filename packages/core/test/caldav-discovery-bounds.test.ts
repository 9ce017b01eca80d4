import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { calDavConnector } from '../src/caldav/adapters/caldav-account.js';
import { CalDavFailure } from '../src/caldav/caldav-failure.js';
import { connectAccount } from '../src/calendar-accounts/connect-account.js';
import { manualClock } from '../src/clock.js';
import { scheduleErrorOf } from './support/errors.js';

// Issue 29 item 9: a CalDAV server that never answers is 502
// calendar_unreachable (docs/calendars.md: "no answer in 5 s"), within that
// time, not one wait per discovery step (the five steps took 20 s), and never
// 422 calendar_not_caldav because the library swallowed the timeout of one
// step and then found no principal. A budget of 200 ms stands for the 5 s.

const TIMEOUT_MS = 200;
const clock = manualClock('2026-05-04T09:00:00.000Z');
const servers: { server: Server; drop: () => void }[] = [];

afterEach(async () => {
  for (const { server, drop } of servers.splice(0)) {
    drop();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listening(server: Server, drop: () => void): Promise<string> {
  servers.push({ server, drop });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/dav/`;
}

/** A server that accepts every connection and never says a word; counts the connections. */
async function silentServer(): Promise<{ url: string; connections: () => number }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    socket.on('error', () => {});
    sockets.push(socket);
  });
  const url = await listening(server, () => {
    for (const socket of sockets) socket.destroy();
  });
  return { url, connections: () => sockets.length };
}

/** An HTTP server that never answers the first discovery request (RFC 6764's /.well-known/caldav) and 404s the rest. */
async function silentOnDiscovery(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    if (!req.url?.startsWith('/.well-known/')) res.writeHead(404).end();
  });
  const url = await listening(server, () => server.closeAllConnections());
  return { url, requests };
}

const account = (url: string) => ({ kind: 'caldav' as const, url, username: 'ann', password_env: 'UNUSED' });
const connector = () => calDavConnector({ clock, passwordOf: () => 'secret-password', timeoutMs: TIMEOUT_MS, discoveryTtlMs: 0 });

describe('discovering a CalDAV server that does not answer', () => {
  it('fails with timeout after one request gets no answer, and asks nothing more', async () => {
    const server = await silentServer();
    const failure = await connector()
      .connect(account(server.url))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CalDavFailure);
    expect({ reason: (failure as CalDavFailure).reason, message: (failure as CalDavFailure).message }).toEqual({
      reason: 'timeout',
      message: `CalDAV server ${new URL(server.url).origin}/.well-known/caldav gave no complete answer within ${TIMEOUT_MS} ms`,
    });
    expect(server.connections()).toBe(1);
  });

  it('reports a step the server never answered as the timeout it was, not as calendar_not_caldav', async () => {
    const server = await silentOnDiscovery();
    const failure = await connector()
      .connect(account(server.url))
      .catch((error: unknown) => error);
    expect((failure as CalDavFailure).reason).toBe('timeout');
    expect(server.requests).toEqual(['PROPFIND /.well-known/caldav']);
  });

  it('is answered 502 calendar_unreachable (reason timeout) when an account is added or tested, naming the server', async () => {
    const server = await silentServer();
    const deps = { connector: connector() };
    expect(await scheduleErrorOf(connectAccount(deps, account(server.url)))).toEqual({
      code: 'calendar_unreachable',
      message: `CalDAV server ${new URL(server.url).origin}/.well-known/caldav gave no complete answer within ${TIMEOUT_MS} ms.`,
      details: { reason: 'timeout' },
      retryAfterSeconds: undefined,
    });
  });
});
