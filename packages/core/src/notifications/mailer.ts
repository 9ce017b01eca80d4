import type { NotificationKind } from '../outbox/record-notification.js';

/** One mail to one person. */
export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** What the mail is about, for logs and tests: its kind and series. */
  readonly kind: NotificationKind;
  readonly seriesUid: string | null;
}

/** Sends mail. Passed in: the default logs it; SMTP is another implementation of the same port. */
export interface Mailer {
  /** Resolves once the mail is handed over; throws when it could not be, and it is tried again later. */
  send(mail: Mail): Promise<void>;
}

/** A mailer that only logs what it would send: the default until a real one is configured. */
export function loggingMailer(log: (fields: Record<string, unknown>, message: string) => void): Mailer {
  return {
    async send(mail) {
      log({ to: mail.to, subject: mail.subject, kind: mail.kind, series_uid: mail.seriesUid }, 'mail');
    },
  };
}
