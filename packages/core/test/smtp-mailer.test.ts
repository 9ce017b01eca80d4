import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Mail } from '../src/notifications/mailer.js';

// nodemailer is an optional peer dependency of core (optional-driver.ts): an
// embedder that never sends mail need not install it, and one that does and
// forgot is told what to install by the send that needs it.

const MAIL: Mail = {
  id: 'n1',
  to: 'bob@guest.test',
  subject: 'Booked: Meet with Hana Host',
  text: 'x',
  html: '<p>x</p>',
  kind: 'booking_created',
  seriesUid: null,
  bookingUid: null,
};

afterEach(() => {
  vi.doUnmock('../src/optional-driver.js');
  vi.resetModules();
});

describe('smtpMailer without nodemailer installed', () => {
  it('fails each send with MissingDriver naming nodemailer and what it is for, and raises no unhandled rejection', async () => {
    // nodemailer is installed here, and vitest wraps a failing module mock in its own error: the import itself
    // fails as Node's ESM loader fails for a package that is not installed, and the real loadDriver reads it.
    vi.doMock('../src/optional-driver.js', async (original) => {
      const real = await original<typeof import('../src/optional-driver.js')>();
      const notInstalled = Object.assign(new Error("Cannot find package 'nodemailer' imported from smtp-mailer.js"), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
      return {
        ...real,
        loadDriver: (_load: unknown, needs: Parameters<typeof real.loadDriver>[1]) =>
          real.loadDriver(() => Promise.reject(notInstalled), needs),
      };
    });
    const { smtpMailer } = await import('../src/notifications/adapters/smtp-mailer.js');
    const { smtpSettings } = await import('../src/notifications/adapters/smtp-settings.js');
    const mailer = smtpMailer(smtpSettings('smtp://relay.internal', 'noreply@example.com'));

    const failure = await mailer.send(MAIL).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('MissingDriver');
    expect(failure).toMatchObject({
      packageName: 'nodemailer',
      message: 'install nodemailer to send mail over SMTP (npm install nodemailer)',
    });
  });
});

describe('DEFAULT_SMTP_TIMEOUTS', () => {
  it('bound a whole send below the dispatcher’s claim on the mail, and each step below the whole send', async () => {
    const { DEFAULT_SMTP_TIMEOUTS } = await import('../src/notifications/adapters/smtp-mailer.js');
    const { HOLD_LEASE_MS } = await import('../src/series/series-hold.js');
    const { connectionMs, greetingMs, socketMs, sendMs } = DEFAULT_SMTP_TIMEOUTS;
    // A server that never answers fails the send while the mail is still claimed, so no second dispatcher sends it meanwhile.
    expect(sendMs).toBeLessThan(HOLD_LEASE_MS);
    for (const step of [connectionMs, greetingMs, socketMs]) {
      expect(step).toBeGreaterThan(0);
      expect(step).toBeLessThan(sendMs);
    }
  });
});
