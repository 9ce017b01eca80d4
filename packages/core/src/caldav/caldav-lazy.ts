import { loadDriver } from '../optional-driver.js';
import type { CalDavConnector, CalDavDeps } from './caldav-connector.js';

/**
 * calDavConnector, with tsdav and undici loaded on the first connection:
 * most processes never talk to a CalDAV server, and an embedder whose hosts
 * have no CalDAV accounts need not install them. One connector (and its
 * discovery cache) serves every call.
 */
export function calDavConnector(deps: CalDavDeps): CalDavConnector {
  let connector: Promise<CalDavConnector> | undefined;
  return {
    async connect(calendar) {
      connector ??= loadDriver(() => import('./adapters/caldav-account.js'), {
        packages: ['tsdav', 'undici'],
        usedFor: 'read and write CalDAV calendars',
      }).then((m) => m.calDavConnector(deps));
      return (await connector).connect(calendar);
    },
  };
}
