import {
  type CalDavConnector,
  type Clock,
  calDavBusyReader,
  calDavConnector,
  conferenceLinksAt,
  createCalendarReader,
  type ExecuteDeps,
  type IcsFeedOptions,
  type IdGenerator,
  icsFeedReader,
  type PagesAddress,
  type Store,
} from '@schedule/core';
import { CliError } from './backend/backend.js';
import { calDavPasswordsFromEnv, calendarAccountsFromEnv, calendarSealerFromEnv } from './calendar-key.js';

/** Core's deps on an open store, configured from the environment (README, "Running the server"). */
export function coreDepsFromEnv(
  store: Store,
  clock: Clock,
  ids: IdGenerator,
  options: {
    onSkippedEvents?: IcsFeedOptions['onSkippedEvents'];
    env?: NodeJS.ProcessEnv;
    /** The connector the calendar syncer uses, so reading and writing share one discovery per account. */
    calDav?: CalDavConnector;
    /** Where booking pages are served; without it, PUBLIC_URL's (the CLI on its own database serves none). */
    pages?: PagesAddress;
  } = {},
): ExecuteDeps {
  const { onSkippedEvents, env = process.env } = options;
  const connector = options.calDav ?? calDavConnector({ clock, passwordOf: calDavPasswordsFromEnv(env, calendarSealerFromEnv(env)) });
  return {
    store,
    clock,
    ids,
    idempotencyLeaseMs: Number(env.IDEMPOTENCY_LEASE_MS ?? 60_000),
    calendars: createCalendarReader(
      icsFeedReader({ clock, ...(onSkippedEvents ? { onSkippedEvents } : {}) }),
      calDavBusyReader({ clock, connector, cacheTtlMs: msFromEnv(env, 'CALDAV_BUSY_CACHE_MS'), onSkippedEvents }),
    ),
    conferenceLinks: conferenceLinksAt(env.CONFERENCE_BASE_URL ?? 'https://meet.schedule.invalid'),
    // For development and tests only: a receiver on this machine or the local network (README, "Webhooks").
    allowPrivateWebhookTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
    calendarAccounts: calendarAccountsFromEnv(env, clock),
    pages: options.pages ?? (() => env.PUBLIC_URL || undefined),
  };
}

/** A whole number of milliseconds from the environment, or undefined (the default) when unset. */
function msFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new CliError('usage', `${name}=${value}: give a whole number of milliseconds, e.g. 60000.`);
  return ms;
}
