import { createAuthenticator, execute, operationsByName, type Principal, randomIds, type Store, systemClock } from '@schedule/core';
import { coreDepsFromEnv } from '../core-deps.js';
import { openRuntime } from '../open-runtime.js';
import { type Backend, CliError } from './backend.js';
import { asCliErrors } from './core-refusals.js';

/** Core on a local database, acting as the token's user: the same rules as the API, without HTTP. */
export interface EmbeddedBackend extends Backend {
  readonly mode: 'embedded';
  readonly store: Store;
}

export async function openEmbedded(options: {
  db: string;
  workspace?: string | undefined;
  token?: string | undefined;
}): Promise<EmbeddedBackend> {
  const clock = systemClock;
  const ids = randomIds;
  const { store } = await openRuntime({ db: options.db, workspace: options.workspace, clock, ids });
  const core = coreDepsFromEnv(store, clock, ids);
  const authenticate = createAuthenticator({ store, clock }, { cacheTtlMs: 0 });
  let principal: Promise<Principal | undefined> | undefined;

  return {
    mode: 'embedded',
    store,
    async call(name, input) {
      const operation = operationsByName[name];
      if (!options.token) throw new CliError('unauthorized', 'No token: set SCHEDULE_TOKEN or pass --token.');
      principal ??= authenticate(options.token);
      const caller = await principal;
      // The API's own words, so that both modes print the same line.
      if (!caller) throw new CliError('unauthorized', 'The bearer token is not valid.');
      const { outcome } = await asCliErrors(() =>
        execute(
          core,
          operation,
          caller,
          {
            params: input.params ?? {},
            query: input.query ?? {},
            body: input.body,
            idempotencyKey: input.idempotencyKey,
            ifMatch: input.ifMatch,
            // The CLI on its own database acts inside the service, not through its API.
            source: 'internal',
          },
          ids.uuid(),
        ),
      );
      return { data: outcome.data, page: outcome.page, version: outcome.version };
    },
    close: () => store.close(),
  };
}
