/** One mail to one person. */
export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** What the mail is about, for logs and tests: its kind and series. */
  readonly kind: NotificationKind;
  readonly seriesUid: string | null;
}

/** The mail that series actions send (issue: a confirmation on create, one notice on end). */
export type NotificationKind = 'series_confirmation' | 'series_ended';

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
