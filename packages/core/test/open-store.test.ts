import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseUrlError, defaultPoolSize, openStore } from '../src/storage/open-store.js';
import { dropPostgresSchema } from '../src/storage/postgres/open-postgres.js';
import type { Store } from '../src/storage/store.js';
import { sharedDatabases } from './support/shared-database.js';
import { storeFixtures, TEST_DATABASE_URL } from './support/stores.js';

describe.each(sharedDatabases())('openStore twice on one $name database', (shared) => {
  afterAll(() => shared.cleanup());

  it('migrates nothing the second time and both stores see the same rows', async () => {
    const [first, second] = await shared.open();
    await first.db
      .insertInto('organization')
      .values({ id: 1, name: 'Acme', limits_json: '{}', updated_at: '2026-01-01T00:00:00.000Z' })
      .execute();
    expect(await second.db.selectFrom('organization').selectAll().execute()).toEqual([
      { id: 1, name: 'Acme', limits_json: '{}', updated_at: '2026-01-01T00:00:00.000Z', attendee_mail: 1 },
    ]);
    expect(first.dialect).toBe(shared.name);
  });
});

describe('openStore on a PostgreSQL schema', () => {
  const fixture = storeFixtures().find((f) => f.name === 'postgres')!;
  const schemas: string[] = [];
  const stores: Store[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await dropPostgresSchema(TEST_DATABASE_URL, ...schemas);
    await fixture.cleanup();
  });

  it('drops several schemas in one call, refuses a name that is not an identifier, and does nothing for none', async () => {
    const names = [`t_${randomBytes(6).toString('hex')}`, `t_${randomBytes(6).toString('hex')}`];
    for (const name of names) await (await openStore(`${TEST_DATABASE_URL}?schema=${name}`)).close();
    const left = async () =>
      (
        await sql<{ name: string }>`select nspname as name from pg_namespace where nspname in (${sql.join(names)})`.execute(
          (stores[0] ?? (await fixture.open())).db,
        )
      ).rows.map((row) => row.name);
    expect((await left()).sort()).toEqual([...names].sort());
    await expect(dropPostgresSchema(TEST_DATABASE_URL, names[0]!, 'x; drop table bookings')).rejects.toThrow(
      'invalid schema name: x; drop table bookings',
    );
    expect((await left()).sort()).toEqual([...names].sort());
    await dropPostgresSchema(TEST_DATABASE_URL);
    await dropPostgresSchema(TEST_DATABASE_URL, ...names);
    expect(await left()).toEqual([]);
  });

  // Regression: the Migrator looked for kysely_migration_lock in every schema,
  // found another schema's, and then failed to read it from the fresh one.
  it('migrates a fresh schema while another schema of the same database is already migrated', async () => {
    await fixture.open();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const store = await openStore(`${TEST_DATABASE_URL}?schema=${schema}`);
    stores.push(store);
    expect(await store.db.selectFrom('bookings').selectAll().execute()).toEqual([]);
  });

  it('keeps at most pool_size connections, however many queries wait', async () => {
    await fixture.open();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const store = await openStore(`${TEST_DATABASE_URL}?schema=${schema}&pool_size=2`);
    stores.push(store);
    // Six queries that each hold their connection a moment: a pool of 10 would open six.
    const backends = await Promise.all(
      Array.from({ length: 6 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(store.db)),
    );
    expect(new Set(backends.map((r) => r.rows[0]!.pid)).size).toBe(2);
  });

  it('without pool_size keeps two connections per core: 4 on 2 cores, however many queries wait', async () => {
    await fixture.open();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    const store = await openStore(`${TEST_DATABASE_URL}?schema=${schema}`, { cores: 2 });
    stores.push(store);
    const backends = await Promise.all(
      Array.from({ length: 8 }, () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(store.db)),
    );
    expect(new Set(backends.map((r) => r.rows[0]!.pid)).size).toBe(4);
  });

  it.each([
    [undefined, 10],
    [0, 10],
    [Number.NaN, 10],
    [1, 4],
    [2, 4],
    [3, 6],
    [4.5, 8],
    [5, 10],
    [64, 10],
  ])('the default pool for %s cores is %i', (cores, size) => {
    expect(defaultPoolSize(cores)).toBe(size);
  });

  it.each(['0', '101', '2.5', 'ten', ''])('refuses pool_size=%j before connecting', async (value) => {
    await expect(openStore(`${TEST_DATABASE_URL}?schema=unused&pool_size=${value}`)).rejects.toThrow(
      `pool_size in the database URL must be a whole number from 1 to 100, not ${JSON.stringify(value)}.`,
    );
  });

  // Issue 29 item 13: this said "database migration  failed: error: database … does not exist".
  it.each([
    ['', 'schedule_missing_db_29'],
    ['?schema=unused', 'schedule_missing_db_29'],
  ])('a database that does not exist (%s) is named, said not to exist, and refused as the URL it is', async (query, name) => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const opened = openStore(`${url.toString()}${query}`);
    await expect(opened).rejects.toBeInstanceOf(DatabaseUrlError);
    await expect(opened).rejects.toThrow(
      `The PostgreSQL database "${name}" does not exist on ${url.host}. Create it (createdb ${name}) or name another in the URL.`,
    );
  });
});
