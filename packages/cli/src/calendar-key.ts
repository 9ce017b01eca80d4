import {
  type CalDavCalendar,
  type CalendarAccountDeps,
  CalendarKeyError,
  type Clock,
  calDavConnector,
  calDavPasswords,
  type PasswordSealer,
  parseCalendarKey,
  passwordSealer,
} from '@schedule/core';
import { CliError } from './backend/backend.js';

/**
 * The sealer of CALENDAR_KEY (README, "Running the server"), or undefined
 * when it is unset; a key that is set but unusable refuses the start, not
 * the first account added.
 */
export function calendarSealerFromEnv(env: NodeJS.ProcessEnv): PasswordSealer | undefined {
  const text = env.CALENDAR_KEY;
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return passwordSealer(parseCalendarKey(text));
  } catch (error) {
    if (error instanceof CalendarKeyError) throw new CliError('usage', error.message);
    throw error;
  }
}

/** Where a CalDAV account's password comes from: its environment variable, or its copy sealed with CALENDAR_KEY. */
export function calDavPasswordsFromEnv(env: NodeJS.ProcessEnv, sealer: PasswordSealer | undefined): (calendar: CalDavCalendar) => string {
  return calDavPasswords({ env, unseal: sealer?.unseal });
}

/** What managing accounts through the API uses; its connector reuses no discovery, so a test reads the server as it is now. */
export function calendarAccountsFromEnv(env: NodeJS.ProcessEnv, clock: Clock): CalendarAccountDeps {
  const sealer = calendarSealerFromEnv(env);
  return { sealer, connector: calDavConnector({ clock, passwordOf: calDavPasswordsFromEnv(env, sealer), discoveryTtlMs: 0 }) };
}
