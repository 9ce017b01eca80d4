// Mutation testing of the mail writers and what series actions mail
// (issue 30 items 8-10): `npx stryker run stryker.mail.config.mjs`.
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.mutation-mail.config.ts', related: true },
  incrementalFile: 'reports/stryker-mail-incremental.json',
  mutate: [
    'src/notifications/zone-abbreviation.ts',
    'src/notifications/adapters/smtp-settings.ts',
    'src/notifications/adapters/smtp-mailer.ts',
    'src/notifications/compose-mail.ts',
    'src/series/occurrence-mail.ts',
  ],
};
