import {
  applyWorkspace,
  type Clock,
  DatabaseUrlError,
  type DeclaredWorkspace,
  type IdGenerator,
  openStore,
  type Store,
  type StoreOptions,
  type WorkspacePlan,
} from '@schedule/core';
import { CliError } from './backend/backend.js';
import { asCliErrors } from './backend/core-refusals.js';
import { demoForToday } from './demo-dates.js';
import { giveDemoPasswords, revokePublicDemoTokens } from './demo-tokens.js';
import { readWorkspace } from './workspace-file.js';

/** An open store, with the workspace file (if any) applied to it, and the plan that was applied. */
export interface Runtime {
  readonly store: Store;
  readonly plan: WorkspacePlan | undefined;
}

/**
 * A demo workspace (public tokens) goes only into a throw-away database
 * (`demo`); with `demo` its dates move to the current week, so it works on
 * whatever day it starts.
 */
export function workspaceFor(file: DeclaredWorkspace, path: string, demo: boolean | undefined, nowMs: number): DeclaredWorkspace {
  if (file.workspace.demo && !demo) {
    throw new CliError(
      'usage',
      `${path} is a demo workspace: its tokens are public. Run it with --demo, which serves it from a throw-away in-memory database.`,
    );
  }
  return demo ? { ...file, workspace: demoForToday(file.workspace, nowMs) } : file;
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
  const declared = file && workspaceFor(file, options.workspace!, options.demo, options.clock.now());
  const store = await openStore(options.db, options.store).catch((error: unknown) => {
    throw error instanceof DatabaseUrlError ? new CliError('usage', error.message) : error;
  });
  try {
    // The plan is applied as `schedule apply` applies it, without --prune: loading never removes anything.
    const plan = declared
      ? await asCliErrors(() => applyWorkspace({ store, clock: options.clock, ids: options.ids }, declared))
      : undefined;
    if (!options.demo) await revokePublicDemoTokens(store, new Date(options.clock.now()).toISOString());
    else if (declared?.workspace.demo)
      await giveDemoPasswords(
        store,
        options.clock,
        declared.workspace.users.map((user) => user.username),
      );
    return { store, plan };
  } catch (error) {
    await store.close();
    throw error;
  }
}
