import {
  type Clock,
  DatabaseUrlError,
  type IdGenerator,
  type LoadReport,
  loadWorkspace,
  openStore,
  type Store,
  type StoreOptions,
} from '@schedule/core';
import { CliError } from './backend/backend.js';
import { asCliErrors } from './backend/core-refusals.js';
import { demoForToday } from './demo-dates.js';
import { giveDemoPasswords, revokePublicDemoTokens } from './demo-tokens.js';
import { readWorkspace } from './workspace-file.js';

/** An open store, with the workspace file (if any) loaded into it. */
export interface Runtime {
  readonly store: Store;
  readonly report: LoadReport | undefined;
}

/**
 * Opens the database a `--db` names and loads a `--workspace` file into it.
 * A demo workspace (public tokens) loads only with `demo` (a throw-away
 * database); any other database has the public demo tokens revoked.
 */
export async function openRuntime(options: {
  db: string;
  workspace?: string | undefined;
  clock: Clock;
  ids: IdGenerator;
  store?: StoreOptions;
  demo?: boolean | undefined;
}): Promise<Runtime> {
  // Parse before opening anything, so a bad file touches no database.
  const file = options.workspace ? await readWorkspace(options.workspace) : undefined;
  if (file?.demo && !options.demo) {
    throw new CliError(
      'usage',
      `${options.workspace} is a demo workspace: its tokens are public. Run it with --demo, which serves it from a throw-away in-memory database.`,
    );
  }
  // The demo's dates move to the current week, so it works on whatever day it starts.
  const workspace = file && options.demo ? demoForToday(file, options.clock.now()) : file;
  const store = await openStore(options.db, options.store).catch((error: unknown) => {
    throw error instanceof DatabaseUrlError ? new CliError('usage', error.message) : error;
  });
  try {
    const report = workspace
      ? await asCliErrors(() => loadWorkspace({ store, clock: options.clock, ids: options.ids }, workspace))
      : undefined;
    if (!options.demo) await revokePublicDemoTokens(store, new Date(options.clock.now()).toISOString());
    else if (workspace?.demo)
      await giveDemoPasswords(
        store,
        options.clock,
        workspace.users.map((user) => user.username),
      );
    return { store, report };
  } catch (error) {
    await store.close();
    throw error;
  }
}
