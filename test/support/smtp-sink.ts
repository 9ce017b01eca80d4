import { once } from 'node:events';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message the sink accepted: its envelope recipients and the message as mailparser reads it. */
export interface Received {
  readonly to: readonly string[];
  readonly parsed: ParsedMail;
}

/**
 * A real SMTP server (the smtp-server package) on a loopback port that
 * accepts every message, for a `schedule serve` to send its mail to.
 */
export async function startSmtpSink(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    // Plain text on loopback: no TLS to upgrade to, no login to ask for.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), parsed });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
