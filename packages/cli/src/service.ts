import { availableParallelism } from 'node:os';
import {
  type Authenticator,
  type CalendarSyncLoop,
  type Clock,
  calDavConnector,
  countBacklog,
  createAuthenticator,
  createCalendarSyncer,
  createRateLimiter,
  createTokenCache,
  type DispatchLoop,
  type ExecuteDeps,
  type Limits,
  loadLimits,
  loggingMailer,
  type Mailer,
  MailSettingsError,
  manageLinkWriter,
  purgeExpiredKeys,
  purgeExpiredRecords,
  type RateLimiter,
  type Readiness,
  randomIds,
  readinessCheck,
  redisRateLimitStore,
  type SmtpSettings,
  type Store,
  type StoreOptions,
  smtpMailer,
  smtpSettings,
  startCalendarSync,
  startDispatchLoop,
  startWebhookDelivery,
  systemClock,
  type WebhookDeliveryLoop,
  type WebhookDeliverySettings,
  webhookHttpClient,
} from '@schedule/core';
import { type AppMetrics, createAppMetrics } from '@schedule/http';
import { type DestinationStream, type Logger, pino } from 'pino';
import { CliError } from './backend/backend.js';
import { calDavPasswordsFromEnv, calendarSealerFromEnv } from './calendar-key.js';
import { coreDepsFromEnv } from './core-deps.js';
import { resolveDatabase } from './default-db.js';
import { openRuntime } from './open-runtime.js';

const HOUR_MS = 60 * 60 * 1000;

/** Everything a front end (HTTP API, MCP server) runs on, wired from flags and the environment. */
export interface Service {
  readonly store: Store;
  readonly core: ExecuteDeps;
  readonly authenticate: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly limits: Limits;
  readonly logger: Logger;
  /** Whether the database answers now (`GET /readyz`). */
  readonly readiness: () => Promise<Readiness>;
  /** What `GET /metrics` exposes: requests, the outbox backlog, rate-limit fail-opens. */
  readonly metrics: AppMetrics;
  /**
   * Tells the service where a server now serves its booking pages (PUBLIC_URL,
   * else where it listens), for `booking_url` and the manage links in mail;
   * until then only PUBLIC_URL is known.
   */
  servePagesAt(url: string): void;
  /** Stops the background work and closes the database. */
  close(): Promise<void>;
}

/** What a service takes from the process it runs in; a test running one in process passes its own. */
export interface ServiceHost {
  readonly clock: Clock;
  /** The configuration (README, "Running the server"). */
  readonly env: NodeJS.ProcessEnv;
  /** Where the log lines go. */
  readonly logTo: DestinationStream;
}

/**
 * The process's own: the wall clock, its environment, and logs on stderr,
 * so stdout stays free (for the MCP stdio transport).
 */
export function processHost(): ServiceHost {
  return { clock: systemClock, env: process.env, logTo: pino.destination({ dest: 2, sync: false }) };
}

/**
 * Opens the database (loading a workspace first), and starts what runs
 * beside any front end: idempotency-key expiry, the mail dispatcher and
 * webhook delivery.
 */
export async function startService(
  options: {
    db?: string | undefined;
    workspace?: string | undefined;
    /** The demo: an in-memory database unless `db` names one, so the public demo tokens never reach a real one. */
    demo?: boolean | undefined;
  },
  host: ServiceHost = processHost(),
): Promise<Service> {
  const { clock, env } = host;
  // Checked before the database opens: a mail setting that cannot work refuses the start, not the first mail.
  const smtp = smtpSettingsFromEnv(env);
  const mailConcurrency = mailConcurrencyFromEnv(env.MAIL_CONCURRENCY);
  const calendarSealer = calendarSealerFromEnv(env);
  const ids = randomIds;
  const { store, plan } = await openRuntime({
    db: options.demo ? (options.db ?? ':memory:') : resolveDatabase(options.db, env),
    workspace: options.workspace,
    clock,
    ids,
    store: { ...storeOptionsFromEnv(env), cores: availableParallelism() },
    demo: options.demo,
  });
  const logger = pino({ level: env.LOG_LEVEL ?? 'info', base: undefined }, host.logTo);
  // What loading the workspace did, as `schedule apply` would have planned it (stdout stays free for MCP stdio).
  if (plan) logger.info({ workspace: options.workspace, plan: plan.summary }, 'workspace applied');
  // The backlog is counted on a scrape only, never on a request's path.
  const metrics = createAppMetrics({ clock, backlog: () => countBacklog(store, clock.now()) });
  const redisUrl = env.REDIS_URL;
  const rateLimiter = createRateLimiter({
    clock,
    onFailOpen: (cause) => metrics.countRateLimitFailOpen(cause),
    ...(redisUrl ? { store: redisRateLimitStore(redisUrl, { keyPrefix: env.REDIS_PREFIX ?? 'schedule:' }) } : {}),
  });
  if (!(await rateLimiter.ready(2000))) {
    logger.warn({ redis: true }, 'Redis is not reachable; rate limits are counted per process until it is');
  }
  // One connector for reading busy time and writing bookings back: one discovery per account.
  const calDav = calDavConnector({ clock, passwordOf: calDavPasswordsFromEnv(env, calendarSealer) });
  // An event left out of a feed is named by feed and UID, never by its contents, which are the host's.
  // Shared by the authenticator and the operations that revoke tokens or deactivate people (docs/api/people.md).
  const tokenCache = createTokenCache();
  let pagesUrl: string | undefined = env.PUBLIC_URL || undefined;
  const pages = () => pagesUrl;
  const core: ExecuteDeps = {
    ...coreDepsFromEnv(store, clock, ids, {
      env,
      calDav,
      pages,
      onSkippedEvents: (feed, skipped) => {
        if (skipped.length === 0) return;
        metrics.countSkippedCalendarEvents(skipped.length);
        for (const { uid, reason } of skipped) logger.warn({ feed, uid, reason }, 'calendar event skipped: it cannot be read');
      },
    }),
    tokenCache,
  };

  // Expired idempotency keys, and the authorization server's expired codes, tokens and sessions.
  const purge = setInterval(() => {
    void purgeExpiredKeys({ store, clock }).catch(() => {});
    void purgeExpiredRecords({ db: store.db, clock }).catch(() => {});
  }, HOUR_MS);
  purge.unref();
  const dispatch: DispatchLoop = startDispatchLoop(
    {
      store,
      clock,
      ids,
      mailer: mailerOf(smtp, logger),
      manageLinks: manageLinkWriter(store.db, { clock }, pages),
      onSendFailed: (error, mail) =>
        logger.warn(
          { err: error, notification_id: mail.id, kind: mail.kind, attempts: mail.attempts },
          mail.givenUp ? 'mail not sent; given up after the last attempt' : 'mail not sent; will retry',
        ),
    },
    {
      intervalMs: Number(env.MAIL_DISPATCH_MS ?? 1000),
      concurrency: mailConcurrency,
      onError: (error) => logger.warn({ err: error }, 'mail dispatch failed; will retry'),
    },
  );

  // Webhooks: events fanned out from the outbox and POSTed to their receivers
  // (docs/webhooks.md); deliveries wait in the database, so a failed
  // step is logged and the loop goes on.
  const webhookHttp = webhookHttpClient({ allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1' });
  // WEBHOOK_DELIVERY=0: this process serves requests and leaves delivery to others (dedicated workers).
  const webhooks: WebhookDeliveryLoop | undefined =
    env.WEBHOOK_DELIVERY === '0'
      ? undefined
      : startWebhookDelivery(
          {
            store,
            clock,
            ids,
            http: webhookHttp,
            logger,
            settings: webhookSettingsFromEnv(env),
            onOutcome: (outcome) => metrics.countWebhookDelivery(outcome),
          },
          { intervalMs: Number(env.WEBHOOK_POLL_MS ?? 50) },
        );

  // Bookings written to their hosts' CalDAV calendars after commit (docs/calendars.md);
  // CALENDAR_SYNC=0 leaves it to other processes, as WEBHOOK_DELIVERY=0 does delivery.
  const calendarSync: CalendarSyncLoop | undefined =
    env.CALENDAR_SYNC === '0'
      ? undefined
      : startCalendarSync(
          createCalendarSyncer({
            store,
            clock,
            ids,
            connector: calDav,
            retryDelaysMs: retryDelaysFromEnv(env.CALENDAR_SYNC_RETRY_MS),
            onOutcome: ({ bookingUid, outcome, error }) => {
              metrics.countCalendarSync(outcome);
              if (outcome === 'retry') logger.warn({ booking_uid: bookingUid, err: error }, 'calendar event not written; will retry');
              else if (outcome === 'failed')
                logger.warn({ booking_uid: bookingUid, err: error }, 'calendar event not written; calendar_sync_status is failed');
            },
          }),
          {
            intervalMs: Number(env.CALENDAR_SYNC_POLL_MS ?? 200),
            onStepFailed: (error) => logger.warn({ err: error }, 'calendar sync step failed; will retry'),
          },
        );

  return {
    store,
    core,
    authenticate: createAuthenticator({ store, clock }, { cacheTtlMs: Number(env.TOKEN_CACHE_MS ?? 2000), cache: tokenCache }),
    rateLimiter,
    limits: await loadLimits(store),
    logger,
    readiness: readinessCheck({ store, clock, rateLimiter }),
    metrics,
    servePagesAt(url) {
      pagesUrl = url;
    },
    async close() {
      clearInterval(purge);
      await dispatch.stop();
      await webhooks?.stop();
      await calendarSync?.stop();
      await webhookHttp.close();
      await rateLimiter.close();
      await store.close();
      logger.flush();
    },
  };
}

/** SMTP_URL and MAIL_FROM (README, "Running the server"), checked; undefined without SMTP_URL. */
function smtpSettingsFromEnv(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  if (!env.SMTP_URL) return undefined;
  try {
    return smtpSettings(env.SMTP_URL, env.MAIL_FROM);
  } catch (error) {
    if (error instanceof MailSettingsError) throw new CliError('usage', error.message);
    throw error;
  }
}

/** The most mails sent at once: each is an SMTP connection, and a mail server limits how many it takes from one client. */
const MAX_MAIL_CONCURRENCY = 32;

/** MAIL_CONCURRENCY, checked: how many mails the dispatcher sends at once (1 to 32); core's default when unset. */
function mailConcurrencyFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_MAIL_CONCURRENCY)
    throw new CliError('usage', `MAIL_CONCURRENCY=${value}: give a whole number from 1 to ${MAX_MAIL_CONCURRENCY}.`);
  return n;
}

/**
 * Mail goes to the SMTP server when SMTP_URL is set, one log line a mail with
 * the Message-ID it left with; without it, mail is only logged, one line
 * each, so the outbox and its holds still run end to end.
 */
function mailerOf(smtp: SmtpSettings | undefined, logger: Logger): Mailer {
  if (smtp === undefined) return loggingMailer((fields, message) => logger.info(fields, message));
  const mailer = smtpMailer(smtp);
  return {
    async send(mail) {
      const sent = await mailer.send(mail);
      logger.info(
        {
          to: mail.to,
          subject: mail.subject,
          kind: mail.kind,
          series_uid: mail.seriesUid,
          booking_uid: mail.bookingUid,
          message_id: sent?.messageId,
        },
        'mail sent',
      );
      return sent;
    },
  };
}

/** Delivery's settings (README, "Running the server"); unset keeps core's defaults (10 failures over 24 h, a 30 s lease). */
function webhookSettingsFromEnv(env: NodeJS.ProcessEnv): Partial<WebhookDeliverySettings> {
  const failures = env.WEBHOOK_PAUSE_AFTER_FAILURES;
  const hours = env.WEBHOOK_PAUSE_AFTER_HOURS;
  const leaseMs = env.WEBHOOK_LEASE_MS;
  return {
    ...(failures ? { pauseAfterFailures: Number(failures) } : {}),
    ...(hours ? { pauseAfterHours: Number(hours) } : {}),
    ...(leaseMs ? { leaseMs: Number(leaseMs) } : {}),
  };
}

/** Optional environment overrides of the database's bounds (README, "Running the server"). */
function storeOptionsFromEnv(env: NodeJS.ProcessEnv): StoreOptions {
  const ms = (name: string) => (env[name] ? Number(env[name]) : undefined);
  const postgresTimeouts = {
    acquireMs: ms('PG_ACQUIRE_TIMEOUT_MS'),
    statementMs: ms('PG_STATEMENT_TIMEOUT_MS'),
    queryMs: ms('PG_QUERY_TIMEOUT_MS'),
    idleInTransactionMs: ms('PG_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
  };
  const sqliteBusyTimeoutMs = ms('SQLITE_BUSY_TIMEOUT_MS');
  return {
    postgresTimeouts: Object.fromEntries(Object.entries(postgresTimeouts).filter(([, v]) => v !== undefined)),
    ...(sqliteBusyTimeoutMs === undefined ? {} : { sqliteBusyTimeoutMs }),
  };
}

/**
 * A backstop, not the way errors are handled: every front end catches its
 * own. A promise someone forgot must cost a log line, never the process.
 */
export function logUnhandledRejections(logger: Logger): void {
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection; still serving'));
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits 0. */
export function exitOnSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    void stop().finally(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** CALENDAR_SYNC_RETRY_MS: the delays between attempts, comma-separated milliseconds; the built-in schedule when unset. */
function retryDelaysFromEnv(value: string | undefined): number[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const delays = value.split(',').map((part) => Number(part.trim()));
  if (delays.some((d) => !Number.isInteger(d) || d < 0))
    throw new CliError('usage', `CALENDAR_SYNC_RETRY_MS=${value}: give milliseconds separated by commas, e.g. 5000,60000.`);
  return delays;
}
