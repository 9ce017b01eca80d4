import type { SendMailOptions } from 'nodemailer';
import { loadDriver } from '../../optional-driver.js';
import type { Mail, Mailer } from '../mailer.js';
import type { SmtpSettings } from './smtp-settings.js';

/**
 * How long each step of a send may take. A server that does not answer
 * costs a send at most `sendMs`, which stays under the dispatcher's claim on
 * the mail (HOLD_LEASE_MS, 30 s): the send fails, the mail is tried again
 * later, and the dispatch loop moves on. Tests pass short ones.
 */
export interface SmtpTimeouts {
  /** Opening the TCP (or TLS) connection. */
  readonly connectionMs: number;
  /** The server's greeting after connecting. */
  readonly greetingMs: number;
  /** Silence on an open connection, at any later step. */
  readonly socketMs: number;
  /** The whole send, end to end, whatever step it is in. */
  readonly sendMs: number;
}

export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 10_000, sendMs: 20_000 };

/** The mail as nodemailer takes it: text and HTML alternatives, and the invite as both a `text/calendar; method=…` part and an attachment. */
function messageOf(mail: Mail, settings: SmtpSettings): SendMailOptions {
  return {
    from: mail.fromName ? { name: `${displayName(mail.fromName)} via ${settings.name}`, address: settings.address } : settings.from,
    to: mail.to,
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // Named by the notification, so a retry after a send whose answer was lost carries the same
    // Message-ID and the receiving side can tell it is the same mail.
    messageId: `<${mail.id}@${settings.domain}>`,
    // nodemailer writes the invite twice: as the calendar alternative (what Outlook and Gmail read
    // to show accept buttons and update the event) and as an application/ics attachment named
    // `filename` (what other clients offer to open).
    ...(mail.calendar
      ? { icalEvent: { method: mail.calendar.method, content: mail.calendar.content, filename: mail.calendar.filename } }
      : {}),
  };
}

/**
 * A person's name as a display name: line breaks and other control
 * characters become spaces, so a name can never end the header and start
 * another (header injection). Quoting and RFC 2047 encoding are nodemailer's,
 * which it does for a name given apart from its address.
 */
function displayName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must not reach a header.
  return name.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/**
 * Sends mail through an SMTP server (nodemailer), one connection a mail. The
 * driver is loaded on the first send: importing core must not cost it, and
 * an embedder that only logs mail need not install it.
 */
export function smtpMailer(settings: SmtpSettings, timeouts: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS): Mailer {
  const transport = loadDriver(() => import('nodemailer'), { packages: ['nodemailer'], usedFor: 'send mail over SMTP' }).then(
    (nodemailer) =>
      nodemailer.createTransport({
        url: settings.url,
        connectionTimeout: timeouts.connectionMs,
        greetingTimeout: timeouts.greetingMs,
        socketTimeout: timeouts.socketMs,
        dnsTimeout: timeouts.connectionMs,
        // A connection that is ending is dropped rather than waited on.
        socketCloseTimeout: 0,
      }),
  );
  // A missing driver fails every send (and is retried); it must not also surface as an unhandled rejection.
  transport.catch(() => {});
  return {
    async send(mail) {
      const info = await (await transport).sendMail({ ...messageOf(mail, settings), signal: AbortSignal.timeout(timeouts.sendMs) });
      return { messageId: info.messageId };
    },
  };
}
