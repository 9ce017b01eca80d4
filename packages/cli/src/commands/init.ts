import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../backend/backend.js';
import { reportError } from '../command-context.js';

/** A starter workspace: one owner who works weekdays, two event types, and a token for them. */
export function starterWorkspace(options: { username: string; timezone: string; secret: string }): Record<string, unknown> {
  const hours = [['09:00', '17:00']];
  return {
    organization: { name: 'My workspace' },
    users: [
      {
        username: options.username,
        email: `${options.username}@example.com`,
        name: options.username,
        timezone: options.timezone,
        role: 'owner',
        schedule: { timezone: options.timezone, weekly: { mon: hours, tue: hours, wed: hours, thu: hours, fri: hours } },
      },
    ],
    event_types: [
      {
        owner: options.username,
        slug: 'intro',
        name: 'Intro call',
        duration_minutes: 30,
        minimum_notice_minutes: 60,
        future_limit_days: 60,
      },
      { owner: options.username, slug: 'one-on-one', name: 'One-on-one', duration_minutes: 45, future_limit_days: 365, recurring: 'on' },
    ],
    tokens: [
      {
        name: 'cli',
        user: options.username,
        secret: options.secret,
        scopes: [
          'series:read',
          'series:write',
          'bookings:read',
          'bookings:create',
          'bookings:cancel',
          'bookings:reschedule',
          'bookings:update',
          'slots:read',
          'webhooks:read',
          'webhooks:write',
          'calendars:read',
          'calendars:write',
          'event_types:write',
          'availability:read',
          'availability:write',
          'people:write',
          'tokens:read',
          'tokens:write',
        ],
      },
    ],
  };
}

/** `schedule init`: writes a starter workspace file to edit, and says how to use it. */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('Write a starter workspace file (one owner, two event types, a token) to edit and load.')
    .option('--file <path>', 'where to write it', 'workspace.json')
    .option(
      '--username <name>',
      "the owner's username",
      process.env.USER && /^[a-z0-9][a-z0-9._-]*$/i.test(process.env.USER) ? process.env.USER : 'me',
    )
    .option('--timezone <zone>', "the owner's time zone", Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')
    .option('--force', 'overwrite an existing file')
    .addHelpText('after', '\nExample:\n  schedule init --file workspace.json && schedule serve --workspace workspace.json')
    .action((options: { file: string; username: string; timezone: string; force?: boolean }) => {
      try {
        if (existsSync(options.file) && !options.force)
          throw new CliError('usage', `${options.file} exists; pass --force to overwrite it.`);
        const secret = `pat_${randomBytes(24).toString('base64url')}`;
        // The file holds a token secret: readable by its owner only, also when --force overwrites a wider one.
        writeFileSync(options.file, `${JSON.stringify(starterWorkspace({ ...options, secret }), null, 2)}\n`, { mode: 0o600 });
        chmodSync(options.file, 0o600);
        process.stdout.write(
          [
            `wrote ${options.file}`,
            `token: ${secret}`,
            '',
            'Next:',
            `  schedule serve --workspace ${options.file}`,
            `  SCHEDULE_TOKEN=${secret} schedule whoami --workspace ${options.file}`,
            '',
          ].join('\n'),
        );
      } catch (error) {
        reportError(error, false);
      }
    });
}
