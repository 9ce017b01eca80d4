import { readFile } from 'node:fs/promises';
import {
  type Clock,
  type IdGenerator,
  type LoadReport,
  loadWorkspace,
  openStore,
  parseWorkspace,
  type Store,
  type StoreOptions,
} from '@schedule/core';

/** An open store, with the workspace file (if any) loaded into it. */
export interface Runtime {
  readonly store: Store;
  readonly report: LoadReport | undefined;
}

/** Opens the database a `--db` names and loads a `--workspace` file into it. */
export async function openRuntime(options: {
  db: string;
  workspace?: string | undefined;
  clock: Clock;
  ids: IdGenerator;
  store?: StoreOptions;
}): Promise<Runtime> {
  // Parse before opening anything, so a bad file touches no database.
  const workspace = options.workspace ? parseWorkspace(await readFile(options.workspace, 'utf8')) : undefined;
  const store = await openStore(options.db, options.store);
  try {
    const report = workspace ? await loadWorkspace({ store, clock: options.clock, ids: options.ids }, workspace) : undefined;
    return { store, report };
  } catch (error) {
    await store.close();
    throw error;
  }
}
