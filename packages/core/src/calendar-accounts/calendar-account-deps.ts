import type { CalDavConnector } from '../caldav/caldav-connector.js';
import type { PasswordSealer } from './password-seal.js';

/** What managing CalDAV accounts uses; passed in, never imported. */
export interface CalendarAccountDeps {
  /**
   * Discovers an account before it is stored and reads it for a test. Its
   * `passwordOf` opens sealed passwords with `sealer`; one that reuses no
   * discovery (a TTL of 0) makes a test read the server as it is now.
   */
  readonly connector: CalDavConnector;
  /** Seals passwords with the server's calendar key; absent when there is none (CALENDAR_KEY unset), and then no account can be added. */
  readonly sealer?: PasswordSealer | undefined;
}
