import { type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/storage/migrate.js';
import { openSqlite } from '../src/storage/sqlite/open-sqlite.js';

// migrateToLatest tries again when the migrator's listing of every table
// fails because someone else changed the database at that moment
// (storage/migrations.ts): a schema, a table or a column gone while it was
// read. The listing's failures are planted here, one per code, on the first
// statements the migrator runs.

/** Fails the first `times` statements with a database error of `code`. */
function failingFirst(code: string, times: number): KyselyPlugin {
  let left = times;
  return {
    transformQuery(args: PluginTransformQueryArgs) {
      if (left > 0) {
        left--;
        throw Object.assign(new Error(`planted ${code}`), { code });
      }
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs) => args.result,
  };
}

async function migratedWith(plugin: KyselyPlugin) {
  const store = openSqlite(':memory:');
  try {
    await migrateToLatest(store.db.withPlugin(plugin));
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
    return rows.rows.map((r) => r.name);
  } finally {
    await store.close();
  }
}

describe('migrateToLatest under a concurrent change', () => {
  for (const code of ['3F000', '42P01', '42703']) {
    it(`tries again after ${code} and migrates every step once`, async () => {
      const applied = await migratedWith(failingFirst(code, 1));
      expect(applied.at(-1)).toMatch(/^00\d\d_/);
      expect(new Set(applied).size).toBe(applied.length);
    });
  }

  it('gives up after the fifth attempt, naming the error', async () => {
    await expect(migratedWith(failingFirst('42703', 5))).rejects.toThrow('database migration failed: Error: planted 42703');
    expect((await migratedWith(failingFirst('42703', 4))).length).toBeGreaterThan(10);
  });

  it('does not try again after any other error', async () => {
    await expect(migratedWith(failingFirst('42883', 1))).rejects.toThrow('database migration failed: Error: planted 42883');
  });
});
