import { randomBytes } from 'node:crypto';
import { openStore } from '../../src/storage/open-store.js';
import { dropPostgresSchema } from '../../src/storage/postgres/open-postgres.js';
import type { Store } from '../../src/storage/store.js';

/** The PostgreSQL the tests use; CI and the dev machine run one on loopback. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface StoreFixture {
  readonly name: 'sqlite' | 'postgres';
  /** A migrated, empty store of its own: a fresh SQLite database or a fresh PostgreSQL schema. */
  open(): Promise<Store>;
  /** Closes every store it opened and drops their schemas. */
  cleanup(): Promise<void>;
}

function sqliteFixture(): StoreFixture {
  const opened: Store[] = [];
  return {
    name: 'sqlite',
    async open() {
      const store = await openStore(':memory:');
      opened.push(store);
      return store;
    },
    async cleanup() {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    },
  };
}

function postgresFixture(): StoreFixture {
  const opened: { store: Store; schema: string }[] = [];
  return {
    name: 'postgres',
    async open() {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const store = await openStore(`${TEST_DATABASE_URL}?schema=${schema}`);
      opened.push({ store, schema });
      return store;
    },
    async cleanup() {
      for (const { store, schema } of opened.splice(0)) {
        await store.close();
        await dropPostgresSchema(TEST_DATABASE_URL, schema);
      }
    },
  };
}

/** Every backend the storage suite must pass on (style.md: one suite, both dialects). */
export function storeFixtures(): StoreFixture[] {
  return [sqliteFixture(), postgresFixture()];
}
