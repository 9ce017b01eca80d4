/** SMTP_URL or MAIL_FROM is not usable; the message says what to set, and never repeats a password. */
export class MailSettingsError extends Error {
  override readonly name = 'MailSettingsError';
}

/** Where mail goes and whom it is from (README, "Running the server": SMTP_URL, MAIL_FROM). */
export interface SmtpSettings {
  /** `smtp://` (STARTTLS when the server offers it) or `smtps://` (TLS from the start), credentials in the URL. */
  readonly url: string;
  /** The sender: `noreply@example.com` or `Schedule <noreply@example.com>`. */
  readonly from: string;
  /** The sender's domain: the right-hand side of every Message-ID. */
  readonly domain: string;
  /** The sender's address alone (`noreply@example.com`): mail shown as from a person still comes from it. */
  readonly address: string;
  /** The service's name in `"Hana Host via <name>"`: MAIL_FROM's display name, else `schedule`. */
  readonly name: string;
}

const ADDRESS = /^[^\s<>@",;]+@([^\s<>@",;]+)$/;

/**
 * Checks SMTP_URL and MAIL_FROM before anything starts: an SMTP_URL without
 * a sender, or one that is not an SMTP URL, is refused with what to fix.
 */
export function smtpSettings(url: string, from: string | undefined): SmtpSettings {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MailSettingsError('SMTP_URL is not a URL; give smtp://user:password@host:587 or smtps://user:password@host:465.');
  }
  if ((parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || parsed.hostname === '') {
    throw new MailSettingsError(
      'SMTP_URL must start with smtp:// or smtps:// and name a host, e.g. smtps://user:password@smtp.example.com:465.',
    );
  }
  const sender = from?.trim() ?? '';
  if (sender === '') {
    throw new MailSettingsError(
      'SMTP_URL is set but MAIL_FROM is not: set MAIL_FROM to the address mail is sent from, e.g. "Schedule <noreply@example.com>".',
    );
  }
  const bracketed = /^[^<>]*<([^<>]+)>$/.exec(sender);
  const address = ADDRESS.exec((bracketed?.[1] ?? sender).trim());
  if (!address) {
    throw new MailSettingsError(`MAIL_FROM "${sender}" is not an address; give noreply@example.com or "Schedule <noreply@example.com>".`);
  }
  const display = bracketed
    ? sender
        .slice(0, sender.lastIndexOf('<'))
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim()
    : '';
  return { url, from: sender, domain: address[1]!, address: address[0], name: display === '' ? 'schedule' : display };
}
