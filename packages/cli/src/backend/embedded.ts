import {
  createAuthenticator,
  execute,
  isScheduleError,
  type ListOutcome,
  operations,
  type Principal,
  randomIds,
  type Store,
  systemClock,
} from '@schedule/core';
import { coreDepsFromEnv } from '../core-deps.js';
import { openRuntime } from '../open-runtime.js';
import { type Backend, CliError } from './backend.js';

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
  const core = coreDepsFromEnv(store, clock, ids, { source: 'internal' });
  const authenticate = createAuthenticator({ store, clock }, { cacheTtlMs: 0 });
  let principal: Promise<Principal | undefined> | undefined;

  return {
    mode: 'embedded',
    store,
    async call(name, input) {
      const operation = operations.find((o) => o.name === name);
      if (!operation) throw new Error(`no operation ${name}`);
      if (!options.token) throw new CliError('unauthorized', 'No token: set SCHEDULE_TOKEN or pass --token.');
      principal ??= authenticate(options.token);
      const caller = await principal;
      // The API's own words, so that both modes print the same line.
      if (!caller) throw new CliError('unauthorized', 'The bearer token is not valid.');
      try {
        const { outcome } = await execute(
          core,
          operation,
          caller,
          {
            params: input.params ?? {},
            query: input.query ?? {},
            body: input.body,
            idempotencyKey: input.idempotencyKey,
            ifMatch: input.ifMatch,
          },
          ids.uuid(),
        );
        const page = (outcome as Partial<ListOutcome>).page;
        return { data: outcome.data, page, version: outcome.version };
      } catch (error) {
        if (isScheduleError(error)) throw new CliError(error.code, error.message, error.details);
        throw error;
      }
    },
    close: () => store.close(),
  };
}
