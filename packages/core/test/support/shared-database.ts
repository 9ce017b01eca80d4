import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/storage/open-store.js';
import { dropPostgresSchema } from '../../src/storage/postgres/open-postgres.js';
import type { Store } from '../../src/storage/store.js';
import { createTestSchema, selectedStores, TEST_DATABASE_URL } from './stores.js';

/** Two Store objects on one database, as two server processes would hold them. */
export interface SharedDatabase {
  readonly name: 'sqlite' | 'postgres';
  open(): Promise<readonly [Store, Store]>;
  cleanup(): Promise<void>;
}

/** Two pools on the same fresh PostgreSQL schema. */
function sharedPostgres(): SharedDatabase {
  const schemas: string[] = [];
  const stores: Store[] = [];
  return {
    name: 'postgres',
    async open() {
      const schema = await createTestSchema();
      schemas.push(schema);
      const first = await openStore(`${TEST_DATABASE_URL}?schema=${schema}`);
      stores.push(first);
      const second = await openStore(`${TEST_DATABASE_URL}?schema=${schema}`);
      stores.push(second);
      return [first, second] as const;
    },
    async cleanup() {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await dropPostgresSchema(TEST_DATABASE_URL, ...schemas.splice(0));
    },
  };
}

/** Two connections on the same fresh SQLite file (WAL), in a temporary directory. */
function sharedSqlite(): SharedDatabase {
  const opened: { stores: Store[]; dir: string }[] = [];
  return {
    name: 'sqlite',
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'schedule-core-'));
      const file = join(dir, 'shared.db');
      const first = await openStore(file);
      const second = await openStore(file);
      opened.push({ stores: [first, second], dir });
      return [first, second] as const;
    },
    async cleanup() {
      for (const { stores, dir } of opened.splice(0)) {
        await Promise.all(stores.map((s) => s.close()));
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Every backend, each as one database shared by two Store objects. */
export function sharedDatabases(): SharedDatabase[] {
  return selectedStores([sharedSqlite(), sharedPostgres()]);
}
