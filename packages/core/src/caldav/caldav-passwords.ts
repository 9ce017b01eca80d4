import type { CalDavCalendar } from '../event-types/calendar.js';
import { urlShown } from '../url-shown.js';
import { CalDavFailure } from './caldav-failure.js';

export interface CalDavPasswordSources {
  /** The process environment, or what a test passes for it: `password_env` names a variable here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Opens a sealed password (accounts added through the API); absent when the server has no calendar key. */
  readonly unseal?: ((sealed: string) => string) | undefined;
}

/** Where an account's password comes from: the environment variable it names, or its sealed copy. */
export function calDavPasswords(sources: CalDavPasswordSources): (calendar: CalDavCalendar) => string {
  return (calendar) => {
    const account = `CalDAV account ${calendar.username} at ${urlShown(calendar.url)}`;
    if (calendar.password_env !== undefined) {
      const password = sources.env[calendar.password_env];
      if (password === undefined || password === '')
        throw new CalDavFailure('no_password', `${account} has no password: the environment variable ${calendar.password_env} is not set`);
      return password;
    }
    if (calendar.password_sealed === undefined) throw new CalDavFailure('no_password', `${account} has no password`);
    if (sources.unseal === undefined)
      throw new CalDavFailure('no_password', `${account} has a stored password, but this server has no calendar key to open it`);
    try {
      return sources.unseal(calendar.password_sealed);
    } catch (error) {
      throw new CalDavFailure('no_password', `${account} has a stored password that this server's calendar key does not open`, undefined, {
        cause: error,
      });
    }
  };
}
