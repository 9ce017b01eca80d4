import type { NotificationKind } from '../outbox/record-notification.js';
import type { InviteMethod } from './invite-ics.js';

/** A calendar invite a mail carries, sent both as the `text/calendar; method=…` part and as an `.ics` attachment. */
export interface MailCalendar {
  readonly method: InviteMethod;
  /** The iCalendar text (invite-ics.ts). */
  readonly content: string;
  readonly filename: string;
}

/** One mail to one person. */
export interface Mail {
  /** The notification it is sent for: the same on every attempt, so a mailer can name the message by it. */
  readonly id: string;
  readonly to: string;
  /** Where a reply goes: to the host for the attendee's mail, to the attendee for the host's. */
  readonly replyTo?: string | undefined;
  /**
   * Whom the mail is shown as from: the person a reply reaches (the host, the
   * ORGANIZER, for the attendee's mail). The mailer sends it from the service's
   * own address as `"<name> via <service>"` (docs/mail.md, "From and Reply-To").
   */
  readonly fromName?: string | undefined;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly calendar?: MailCalendar | undefined;
  /** What the mail is about, for logs and tests: its kind, series and booking. */
  readonly kind: NotificationKind;
  readonly seriesUid: string | null;
  readonly bookingUid: string | null;
}

/** What a mailer reports of a mail it handed over. */
export interface SentMail {
  /** The Message-ID the mail went out with, when the mailer knows it; kept on the notification. */
  readonly messageId?: string | undefined;
}

/** Sends mail. Passed in: the default logs it; smtpMailer (adapters/) hands it to an SMTP server. */
export interface Mailer {
  /**
   * Resolves once the mail is handed over; throws when it could not be, and
   * it is tried again later. Must end in bounded time: the dispatcher waits
   * for it, and its claim on the mail lasts HOLD_LEASE_MS.
   */
  send(mail: Mail): Promise<SentMail | undefined>;
}

/** A mailer that only logs what it would send, one line a mail: the default until SMTP_URL is set. */
export function loggingMailer(log: (fields: Record<string, unknown>, message: string) => void): Mailer {
  return {
    async send(mail) {
      log(
        {
          to: mail.to,
          subject: mail.subject,
          kind: mail.kind,
          series_uid: mail.seriesUid,
          booking_uid: mail.bookingUid,
          invite: mail.calendar?.method ?? null,
        },
        'mail',
      );
      return undefined;
    },
  };
}
