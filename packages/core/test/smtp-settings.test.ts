import { describe, expect, it, vi } from 'vitest';
import { MailSettingsError, smtpSettings } from '../src/notifications/adapters/smtp-settings.js';

// SMTP_URL and MAIL_FROM are checked before a server starts (README, "Running the server").

describe('smtpSettings', () => {
  it('takes smtp:// and smtps:// URLs with credentials, and a bare or named sender; the Message-ID domain is the sender’s', () => {
    expect(smtpSettings('smtps://user:p%40ss@smtp.example.com:465', 'noreply@example.com')).toEqual({
      url: 'smtps://user:p%40ss@smtp.example.com:465',
      from: 'noreply@example.com',
      domain: 'example.com',
      address: 'noreply@example.com',
      name: 'schedule',
    });
    expect(smtpSettings('smtp://relay.internal', '  Schedule <mail@schedule.example>  ')).toEqual({
      url: 'smtp://relay.internal',
      from: 'Schedule <mail@schedule.example>',
      domain: 'schedule.example',
      address: 'mail@schedule.example',
      name: 'Schedule',
    });
    expect(smtpSettings('smtp://relay.internal', '"Acme Booking" <mail@acme.example>')).toMatchObject({
      address: 'mail@acme.example',
      name: 'Acme Booking',
    });
  });

  it.each([
    ['"Acme Booking" <mail@acme.example>', 'Acme Booking'],
    ['" Acme "  <mail@acme.example>', 'Acme'],
    ['Acme "Booking" <mail@acme.example>', 'Acme "Booking"'],
    ['<mail@acme.example>', 'schedule'],
    ['""<mail@acme.example>', 'schedule'],
    // Quotes only strip when they enclose the whole name.
    ['"Acme" Booking <mail@acme.example>', '"Acme" Booking'],
    ['Acme < mail@acme.example >', 'Acme'],
  ])('MAIL_FROM %s names the service %s in "<person> via <service>"', (from, name) => {
    expect(smtpSettings('smtp://relay.internal', from)).toMatchObject({ address: 'mail@acme.example', name });
  });

  it.each([
    [
      'smtp://h',
      undefined,
      'SMTP_URL is set but MAIL_FROM is not: set MAIL_FROM to the address mail is sent from, e.g. "Schedule <noreply@example.com>".',
    ],
    [
      'smtp://h',
      '   ',
      'SMTP_URL is set but MAIL_FROM is not: set MAIL_FROM to the address mail is sent from, e.g. "Schedule <noreply@example.com>".',
    ],
    ['smtp://h', 'Schedule', 'MAIL_FROM "Schedule" is not an address; give noreply@example.com or "Schedule <noreply@example.com>".'],
    ['smtp://h', 'a@b, c@d', 'MAIL_FROM "a@b, c@d" is not an address; give noreply@example.com or "Schedule <noreply@example.com>".'],
    [
      'smtp://h',
      'Acme <mail@acme.example> extra',
      'MAIL_FROM "Acme <mail@acme.example> extra" is not an address; give noreply@example.com or "Schedule <noreply@example.com>".',
    ],
    [
      'smtp://h',
      'Acme <b> <mail@acme.example>',
      'MAIL_FROM "Acme <b> <mail@acme.example>" is not an address; give noreply@example.com or "Schedule <noreply@example.com>".',
    ],
    [
      'smtp:///no-host',
      'a@b',
      'SMTP_URL must start with smtp:// or smtps:// and name a host, e.g. smtps://user:password@smtp.example.com:465.',
    ],
    [
      'https://user:secret@h',
      'a@b',
      'SMTP_URL must start with smtp:// or smtps:// and name a host, e.g. smtps://user:password@smtp.example.com:465.',
    ],
    [
      'user:secret@h',
      'a@b',
      'SMTP_URL must start with smtp:// or smtps:// and name a host, e.g. smtps://user:password@smtp.example.com:465.',
    ],
    ['not a url', 'a@b', 'SMTP_URL is not a URL; give smtp://user:password@host:587 or smtps://user:password@host:465.'],
  ])('refuses SMTP_URL %j with MAIL_FROM %j, saying what to set and never repeating a password', (url, from, message) => {
    expect(() => smtpSettings(url, from)).toThrow(new MailSettingsError(message));
    expect(message).not.toContain('secret');
  });

  it('takes only a whole MAIL_FROM as an address: nothing before it, nothing after it', async () => {
    // Imported inside the test: the address pattern is built as the module loads, and mutation testing switches a
    // mutant on for each test, after this file loaded (README, "Mutation testing").
    vi.resetModules();
    const fresh = await import('../src/notifications/adapters/smtp-settings.js');
    for (const from of ['Schedule mail@acme.example', 'mail@acme.example more']) {
      expect(() => fresh.smtpSettings('smtp://h', from)).toThrow(
        `MAIL_FROM "${from}" is not an address; give noreply@example.com or "Schedule <noreply@example.com>".`,
      );
    }
  });

  it('names itself MailSettingsError where a start-up failure is printed', () => {
    expect(() => smtpSettings('smtp://h', undefined)).toThrow(expect.objectContaining({ name: 'MailSettingsError' }));
    expect(String(new MailSettingsError('x'))).toBe('MailSettingsError: x');
  });
});
