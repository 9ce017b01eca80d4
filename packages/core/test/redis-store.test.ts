import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.js';
import { redisRateLimitStore } from '../src/rate-limit/adapters/redis-store.js';
import type { RateLimitStore } from '../src/rate-limit/rate-limit-store.js';
import { createRateLimiter, type RateLimiter } from '../src/rate-limit/rate-limiter.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const NOON = '2026-01-05T12:00:00.000Z';
const BUCKET = { key: 'pat:token-1', limit: 3 };

const limiters: RateLimiter[] = [];
const servers: { server: Server; sockets: Set<Socket> }[] = [];
const clients: Redis[] = [];

afterEach(async () => {
  await Promise.all(limiters.splice(0).map((l) => l.close()));
  for (const client of clients.splice(0)) client.disconnect();
  for (const { server, sockets } of servers.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A unique key prefix, so tests never count each other's hits. */
const prefix = () => `schedule-test:${randomUUID()}:`;

function limiterOn(store: RateLimitStore, clock = manualClock(NOON), failOpenAfterMs = 50): RateLimiter {
  const limiter = createRateLimiter({ store, clock, failOpenAfterMs });
  limiters.push(limiter);
  return limiter;
}

/** Waits, as a server does before it listens, until the store can count. */
async function connected(store: RateLimitStore): Promise<void> {
  expect(await store.ready(2000)).toBe(true);
}

/**
 * Splits what a client sends into RESP commands (arrays of bulk strings) and
 * hands each command's name, lower-cased, to `onCommand`; keeps partial input.
 */
function respCommands(onCommand: (socket: Socket, command: string) => void): (socket: Socket, chunk: string) => void {
  const pending = new Map<Socket, string>();
  return (socket, chunk) => {
    let buffer = (pending.get(socket) ?? '') + chunk;
    for (;;) {
      const header = /^\*(\d+)\r\n/.exec(buffer);
      if (!header) break;
      let offset = header[0].length;
      const parts: string[] = [];
      for (let i = 0; i < Number(header[1]); i++) {
        const bulk = /^\$(\d+)\r\n/.exec(buffer.slice(offset));
        if (!bulk) break;
        const start = offset + bulk[0].length;
        const end = start + Number(bulk[1]);
        if (buffer.length < end + 2) break;
        parts.push(buffer.slice(start, end));
        offset = end + 2;
      }
      if (parts.length !== Number(header[1])) break;
      buffer = buffer.slice(offset);
      onCommand(socket, (parts[0] ?? '').toLowerCase());
    }
    pending.set(socket, buffer);
  };
}

/** A TCP server that accepts connections and then runs `onData` for what arrives (nothing, by default). */
async function fakeServer(onData: (socket: Socket, chunk: string) => void = () => {}): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk) => onData(socket, chunk.toString('latin1')));
  });
  servers.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `redis://127.0.0.1:${address.port}`;
}

describe('redisRateLimitStore', () => {
  it('lets two limiters on one Redis count one bucket together', async () => {
    const keyPrefix = prefix();
    const one = redisRateLimitStore(REDIS_URL, { keyPrefix });
    const two = redisRateLimitStore(REDIS_URL, { keyPrefix });
    const first = limiterOn(one);
    const second = limiterOn(two);
    await Promise.all([connected(one), connected(two)]);

    const decisions = [
      await first.consume(BUCKET),
      await second.consume(BUCKET),
      await first.consume(BUCKET),
      await second.consume(BUCKET),
    ];
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
  });

  it('counts from the first request after the store is created', async () => {
    const keyPrefix = prefix();
    const clock = manualClock(NOON);
    const firstStore = redisRateLimitStore(REDIS_URL, { keyPrefix });
    const secondStore = redisRateLimitStore(REDIS_URL, { keyPrefix });
    const first = limiterOn(firstStore, clock, 500);
    const second = limiterOn(secondStore, clock, 500);
    // What a server does before it listens.
    expect(await Promise.all([first.ready(2000), second.ready(2000)])).toEqual([true, true]);
    const decisions = [await first.consume(BUCKET), await second.consume(BUCKET)];
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1]);
  });

  it('starts a new count in the next window', async () => {
    const store = redisRateLimitStore(REDIS_URL, { keyPrefix: prefix() });
    const clock = manualClock(NOON);
    const limiter = limiterOn(store, clock);
    await connected(store);
    for (let i = 0; i < 4; i++) await limiter.consume(BUCKET);
    clock.advance(60_000);
    const decision = await limiter.consume(BUCKET);
    expect({ allowed: decision.allowed, remaining: decision.remaining }).toEqual({ allowed: true, remaining: 2 });
  });

  it('keeps counts of different key prefixes apart', async () => {
    const one = redisRateLimitStore(REDIS_URL, { keyPrefix: prefix() });
    const two = redisRateLimitStore(REDIS_URL, { keyPrefix: prefix() });
    await Promise.all([connected(one), connected(two)]);
    await limiterOn(one).consume(BUCKET);
    expect((await limiterOn(two).consume(BUCKET)).remaining).toBe(2);
  });

  it('lets the key of a window expire one second after the window', async () => {
    const keyPrefix = prefix();
    const store = redisRateLimitStore(REDIS_URL, { keyPrefix });
    await connected(store);
    limiters.push(createRateLimiter({ store, clock: manualClock(NOON) }));
    expect(await store.hit('pat:token-1', Date.parse(NOON), 60_000)).toBe(1);
    const client = new Redis(REDIS_URL);
    clients.push(client);
    const ttl = await client.pttl(`${keyPrefix}rl:pat:token-1:${Date.parse(NOON)}`);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
  });

  it('fails open at once, counting locally, when nothing listens at the Redis address', async () => {
    const limiter = limiterOn(redisRateLimitStore('redis://127.0.0.1:1', { keyPrefix: prefix() }));
    const started = performance.now();
    const first = await limiter.consume(BUCKET);
    const elapsed = performance.now() - started;
    const second = await limiter.consume(BUCKET);
    expect([first, second].map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
    ]);
    expect(elapsed).toBeLessThan(1000);
  });

  it('fails open within the bound when the server accepts the connection and never answers', async () => {
    const url = await fakeServer();
    const limiter = limiterOn(redisRateLimitStore(url, { keyPrefix: prefix() }));
    const started = performance.now();
    const decision = await limiter.consume(BUCKET);
    const elapsed = performance.now() - started;
    expect({ allowed: decision.allowed, remaining: decision.remaining }).toEqual({ allowed: true, remaining: 2 });
    expect(elapsed).toBeLessThan(1000);
  });

  it.each([
    ['the limiter bound', { commandTimeoutMs: 5000, failOpenAfterMs: 50 }],
    ['the store command timeout', { commandTimeoutMs: 50, failOpenAfterMs: 5000 }],
  ])('fails open within %s when Redis answered once and then stops answering', async (_, bounds) => {
    // Speaks just enough RESP for ioredis to get ready and for one script call; after that, silence.
    let evals = 0;
    const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
    const url = await fakeServer(
      respCommands((socket, command) => {
        if (command === 'client') socket.write('+OK\r\n');
        else if (command === 'info') socket.write(`$${info.length}\r\n${info}\r\n`);
        else if (command === 'eval' && evals++ === 0) socket.write(':1\r\n');
      }),
    );
    const store = redisRateLimitStore(url, { keyPrefix: prefix(), commandTimeoutMs: bounds.commandTimeoutMs });
    const limiter = limiterOn(store, manualClock(NOON), bounds.failOpenAfterMs);
    await connected(store);
    expect(await store.hit('warm-up', 0, 60_000)).toBe(1); // the one answer it gives
    const started = performance.now();
    const decision = await limiter.consume(BUCKET);
    const elapsed = performance.now() - started;
    expect({ allowed: decision.allowed, remaining: decision.remaining, evals }).toEqual({ allowed: true, remaining: 2, evals: 2 });
    expect(elapsed).toBeLessThan(1000);
  });
});
