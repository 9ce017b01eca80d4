import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// The receiving end of the mail tests: a real SMTP server (the smtp-server
// package) on a loopback port, keeping what it accepts, and told by a test
// to misbehave the way real servers do.

/** One accepted message: the envelope, and the message as mailparser reads it back. */
export interface Received {
  readonly from: string;
  readonly to: readonly string[];
  readonly parsed: ParsedMail;
  readonly raw: string;
}

/**
 * How the server answers the next sends: accepts; refuses for now (451) at
 * DATA; hangs up before the greeting; or takes the message and never answers.
 */
export type SinkMode = 'accept' | 'busy' | 'hang-up' | 'stall';

export interface SmtpSink {
  /** smtp://127.0.0.1:PORT */
  readonly url: string;
  readonly received: Received[];
  mode: SinkMode;
  close(): Promise<void>;
}

function rejection(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const sink: SmtpSink = { url: '', received, mode: 'accept', close: async () => {} };
  const server = new SMTPServer({
    // Plain text on loopback: no TLS to upgrade to, no login to ask for.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onConnect(session, callback) {
      if (sink.mode === 'hang-up') {
        // Gone without a word: what a crashed or firewalled relay looks like.
        const socket = [...sockets].find((s) => s.remotePort === session.remotePort);
        socket?.destroy();
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (sink.mode === 'stall') return;
        if (sink.mode === 'busy') {
          callback(rejection('Try again later', 451));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              parsed,
              raw,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return Object.assign(sink, {
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

/** A server that accepts connections and never says a word: no greeting, ever. */
export async function startSilentServer(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
