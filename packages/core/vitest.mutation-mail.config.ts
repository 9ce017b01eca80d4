import { defineConfig } from 'vitest/config';

/**
 * The tests that exercise mail (stryker.mail.config.mjs): the pure writers
 * (zone names, the invite, the mail's words), the SMTP adapter against a
 * real receiver, and the series actions' mail read back by an independent
 * parser. Kept apart from vitest.mutation.config.ts, whose rule files these
 * suites would slow down.
 */
export default defineConfig({
  test: {
    include: [
      'test/zone-abbreviation.test.ts',
      'test/smtp-settings.test.ts',
      'test/compose-mail.test.ts',
      'test/invite-ics.test.ts',
      'test/booking-mail.test.ts',
      'test/mail-smtp.test.ts',
      'test/series-notifications.test.ts',
      'test/series-mail-calendar.test.ts',
    ],
    testTimeout: 20_000,
  },
});
