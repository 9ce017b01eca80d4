import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local iCalendar feed: a node:http server on 127.0.0.1 answering every GET with one calendar. */
export interface IcsServer {
  readonly port: number;
  /** The feed's URL at `path`. */
  url(path?: string): string;
  /** How many requests the server has answered. */
  requests(): number;
  close(): Promise<void>;
}

function listenOn(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export interface IcsServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The HTTP status every answer has; 200 by default. */
  status?: number;
}

/** Serves `calendar` as `text/calendar`. */
export async function startIcsServer(calendar: string, options: IcsServerOptions = {}): Promise<IcsServer> {
  const { port = 0, status = 200 } = options;
  let served = 0;
  const server = createServer((_req, res) => {
    served += 1;
    res.writeHead(status, { 'content-type': 'text/calendar; charset=utf-8' });
    res.end(calendar);
  });
  const bound = await listenOn(server, port);
  return {
    port: bound,
    url: (path = '/calendar.ics') => `http://127.0.0.1:${bound}${path}`,
    requests: () => served,
    close: () => closeServer(server),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago, and is closed again). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  const port = await listenOn(probe, 0);
  await closeServer(probe);
  return port;
}

/** An iCalendar UTC DATE-TIME (`20260105T090000Z`) of an instant. */
export function icsUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** An iCalendar local DATE-TIME (`20260105T090000`) of the wall clock `offsetMinutes` ahead of UTC at an instant. */
export function icsLocal(ms: number, offsetMinutes: number): string {
  return icsUtc(ms + offsetMinutes * 60_000).replace(/Z$/, '');
}

/** Joins calendar lines with CRLF, as RFC 5545 §3.1 asks. */
export function icsText(lines: readonly string[]): string {
  return `${lines.join('\r\n')}\r\n`;
}
