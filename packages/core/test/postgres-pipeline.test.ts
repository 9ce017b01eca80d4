import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/storage/postgres/open-postgres.js';
import type { Store } from '../src/storage/store.js';
import { scheduleErrorOf } from './support/errors.js';
import { createTestSchema, TEST_DATABASE_URL } from './support/stores.js';

// Issue 18: a write transaction's `begin` is sent without waiting for its
// answer, so the transaction's first statement rides on the same round trip
// (postgres-driver.ts, begin). A proxy between the pool and PostgreSQL holds
// the server's answer to `begin`: the statement must reach the proxy anyway.
// Without pipelining the client waits for that answer first, and it never
// reaches it.

/** A loopback proxy to PostgreSQL that can hold what the server sends back. */
interface HoldingProxy {
  readonly url: string;
  /** Everything the client sent so far, as text (the statements are readable in it). */
  sent(): string;
  /** Holds the server's bytes once the client's bytes contain `text`, until release(). */
  holdAnswersAfter(text: string): void;
  release(): void;
  close(): Promise<void>;
}

async function holdingProxy(target: URL): Promise<HoldingProxy> {
  let fromClient = '';
  let holdAfter: string | undefined;
  let holding = false;
  const held: Array<{ socket: Socket; chunk: Buffer }> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => {
      fromClient += chunk.toString('latin1');
      if (holdAfter !== undefined && fromClient.includes(holdAfter)) {
        holding = true;
        holdAfter = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (holding) held.push({ socket: client, chunk });
      else client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    sent: () => fromClient,
    holdAnswersAfter(text) {
      holdAfter = text;
    },
    release() {
      holding = false;
      for (const { socket, chunk } of held.splice(0)) socket.write(chunk);
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('PostgreSQL: begin and the first statement of a transaction share one round trip', () => {
  let schema: string;
  let proxy: HoldingProxy;
  const stores: Store[] = [];

  beforeAll(async () => {
    schema = await createTestSchema();
    proxy = await holdingProxy(new URL(TEST_DATABASE_URL));
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await proxy.close();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('the first statement is sent before begin is answered, and the transaction commits', async () => {
    const store = openPostgres(proxy.url, { schema, maxConnections: 1 });
    stores.push(store);
    await sql`select 1`.execute(store.db); // connected, so only the transaction's bytes follow
    proxy.holdAnswersAfter('begin');
    const marker = 'pipelined-after-begin';
    // txid_current() is the same for every statement of one transaction, and new for each outside one.
    const transaction = store.db.transaction().execute(async (trx) => {
      const first = await sql<{ m: string; x: string }>`select ${marker}::text as m, txid_current()::text as x`.execute(trx);
      const second = await sql<{ x: string }>`select txid_current()::text as x`.execute(trx);
      return { m: first.rows[0]!.m, sameTransaction: first.rows[0]!.x === second.rows[0]!.x };
    });
    try {
      await expect.poll(() => proxy.sent().includes(marker), { timeout: 2000 }).toBe(true);
    } finally {
      proxy.release();
    }
    expect(await transaction).toEqual({ m: marker, sameTransaction: true });
  });

  it("begin's failure is the first statement's: a session lost under both answers 503", async () => {
    const store = openPostgres(proxy.url, { schema, maxConnections: 1 });
    stores.push(store);
    await sql`select 1`.execute(store.db);
    proxy.holdAnswersAfter('begin');
    const transaction = store.db.transaction().execute(async (trx) => sql`select 'lost-after-begin'`.execute(trx));
    await expect.poll(() => proxy.sent().includes('lost-after-begin'), { timeout: 2000 }).toBe(true);
    await proxy.close();
    proxy = await holdingProxy(new URL(TEST_DATABASE_URL));
    expect(await scheduleErrorOf(transaction)).toMatchObject({ code: 'database_unavailable', retryAfterSeconds: 2 });
  });
});
