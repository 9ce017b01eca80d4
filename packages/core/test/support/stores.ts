import { randomBytes } from 'node:crypto';
import { openStore } from '../../src/storage/open-store.js';
import { createPostgresSchema, dropPostgresSchema } from '../../src/storage/postgres/open-postgres.js';
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

/** A fresh, empty schema name; `openStore(url?schema=NAME)` creates and migrates it. */
export async function createTestSchema(): Promise<string> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await createPostgresSchema(TEST_DATABASE_URL, schema);
  return schema;
}

function postgresFixture(): StoreFixture {
  const schemas: string[] = [];
  const stores: Store[] = [];
  return {
    name: 'postgres',
    async open() {
      const schema = await createTestSchema();
      // Recorded before opening, so a failed open still has its schema dropped.
      schemas.push(schema);
      const store = await openStore(`${TEST_DATABASE_URL}?schema=${schema}`);
      stores.push(store);
      return store;
    },
    async cleanup() {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await dropPostgresSchema(TEST_DATABASE_URL, ...schemas.splice(0));
    },
  };
}

/**
 * The backends named in `TEST_STORES` (comma-separated, e.g. `sqlite`), or
 * all of them. Mutation testing sets `sqlite`: the rules it mutates are the
 * same on both, and each mutant reruns the tests that cover it, so PostgreSQL
 * would only multiply the time. CI never sets it.
 */
export function selectedStores<T extends { readonly name: 'sqlite' | 'postgres' }>(all: readonly T[]): T[] {
  const wanted = process.env.TEST_STORES?.split(',').map((name) => name.trim());
  return wanted === undefined ? [...all] : all.filter((backend) => wanted.includes(backend.name));
}

/** Every backend the storage suite must pass on (style.md: one suite, both dialects). */
export function storeFixtures(): StoreFixture[] {
  return selectedStores([sqliteFixture(), postgresFixture()]);
}
