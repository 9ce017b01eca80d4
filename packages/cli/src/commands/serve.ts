import {
  conferenceLinksAt,
  createAuthenticator,
  createCalendarReader,
  createRateLimiter,
  icsFeedReader,
  loadLimits,
  loggingMailer,
  operations,
  purgeExpiredKeys,
  randomIds,
  redisRateLimitStore,
  startDispatchLoop,
  systemClock,
} from '@schedule/core';
import { buildApp, listen } from '@schedule/http';
import { pino } from 'pino';
import { resolveDatabase } from '../default-db.js';
import { openRuntime } from '../open-runtime.js';

export interface ServeOptions {
  workspace?: string;
  db?: string;
  port?: string;
  host?: string;
  demo?: boolean;
}

const HOUR_MS = 60 * 60 * 1000;

/** `schedule serve`: the HTTP API on one database, until SIGTERM. */
export async function serve(options: ServeOptions, out: NodeJS.WritableStream): Promise<void> {
  const clock = systemClock;
  const ids = randomIds;
  const { store } = await openRuntime({ db: resolveDatabase(options.db), workspace: options.workspace, clock, ids });
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info', base: undefined }, pino.destination({ dest: 2, sync: false }));
  const redisUrl = process.env.REDIS_URL;
  const rateLimiter = createRateLimiter({
    clock,
    ...(redisUrl ? { store: redisRateLimitStore(redisUrl, { keyPrefix: process.env.REDIS_PREFIX ?? 'schedule:' }) } : {}),
  });
  const app = buildApp({
    core: {
      store,
      clock,
      ids,
      idempotencyLeaseMs: Number(process.env.IDEMPOTENCY_LEASE_MS ?? 60_000),
      calendars: createCalendarReader(icsFeedReader({ clock })),
      conferenceLinks: conferenceLinksAt(process.env.CONFERENCE_BASE_URL ?? 'https://meet.schedule.invalid'),
    },
    authenticate: createAuthenticator({ store, clock }, { cacheTtlMs: Number(process.env.TOKEN_CACHE_MS ?? 2000) }),
    operations,
    rateLimiter,
    limits: await loadLimits(store),
    logger,
  });
  if (!(await rateLimiter.ready(2000))) {
    logger.warn({ redis: true }, 'Redis is not reachable; rate limits are counted per process until it is');
  }
  const port = Number(options.port ?? process.env.PORT ?? 3000);
  const running = await listen(app, { host: options.host ?? process.env.HOST ?? '127.0.0.1', port });
  out.write(`schedule: listening on ${running.url}\n`);
  if (options.demo) out.write(demoHint(running.url));

  const purge = setInterval(() => void purgeExpiredKeys({ store, clock }).catch(() => {}), HOUR_MS);
  purge.unref();
  // No SMTP yet: mail is logged, one line each, so the outbox and its holds are exercised end to end.
  const mailer = loggingMailer((fields, message) => logger.info(fields, message));
  const dispatch = startDispatchLoop(
    { store, clock, ids, mailer },
    {
      intervalMs: Number(process.env.MAIL_DISPATCH_MS ?? 1000),
      onError: (error) => logger.warn({ err: error }, 'mail dispatch failed; will retry'),
    },
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(purge);
    await running.close();
    await dispatch.stop();
    await rateLimiter.close();
    await store.close();
    logger.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

function demoHint(url: string): string {
  return [
    '',
    'Demo workspace loaded. Try it with the demo token of Alice (owner):',
    '',
    `  curl -s -H 'Authorization: Bearer pat_demo_alice_0123456789' '${url}/v1/bookings?limit=3'`,
    '',
    'Other demo tokens: pat_demo_bob_0123456789 (manager), pat_demo_carol_0123456789 (user). Ctrl-C stops the server.',
    '',
  ].join('\n');
}
