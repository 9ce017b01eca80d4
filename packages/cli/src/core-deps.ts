import {
  type Clock,
  conferenceLinksAt,
  createCalendarReader,
  type ExecuteDeps,
  type IcsFeedOptions,
  type IdGenerator,
  icsFeedReader,
  type Store,
} from '@schedule/core';
import { calendarAccountsFromEnv } from './calendar-key.js';

/** Core's deps on an open store, configured from the environment (README, "Running the server"). */
export function coreDepsFromEnv(
  store: Store,
  clock: Clock,
  ids: IdGenerator,
  options: { onSkippedEvents?: IcsFeedOptions['onSkippedEvents']; env?: NodeJS.ProcessEnv } = {},
): ExecuteDeps {
  const { onSkippedEvents, env = process.env } = options;
  return {
    store,
    clock,
    ids,
    idempotencyLeaseMs: Number(env.IDEMPOTENCY_LEASE_MS ?? 60_000),
    calendars: createCalendarReader(icsFeedReader({ clock, ...(onSkippedEvents ? { onSkippedEvents } : {}) })),
    conferenceLinks: conferenceLinksAt(env.CONFERENCE_BASE_URL ?? 'https://meet.schedule.invalid'),
    // For development and tests only: a receiver on this machine or the local network (README, "Webhooks").
    allowPrivateWebhookTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
    calendarAccounts: calendarAccountsFromEnv(env, clock),
  };
}
