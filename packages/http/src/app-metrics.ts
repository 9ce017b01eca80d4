import { type Backlog, type Clock, type DeliveryOutcome, type FailOpenCause, type SyncOutcome, within } from '@schedule/core';
// prom-client, a well-kept library, over hand-written exposition text: the
// format's escaping, histogram buckets and process metrics are its problem.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds; from a cached read (~1 ms) to the longest a request may take (the 15 s request timeout). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface AppMetricsOptions {
  readonly clock: Clock;
  /** Counts what waits to go out; read on a scrape, never on a request's path. Without it there are no backlog gauges. */
  readonly backlog?: (() => Promise<Backlog>) | undefined;
  /** A scrape waits this long for the backlog, then answers without it. */
  readonly backlogTimeoutMs?: number | undefined;
  /** A backlog count is reused this long, so a flood of scrapes costs the database one count a second. */
  readonly backlogCacheMs?: number | undefined;
  /** The process's own metrics (CPU, memory, event loop lag, GC), from the first scrape on; on unless false. */
  readonly processMetrics?: boolean | undefined;
}

/** The metrics of one app, in a registry of its own (several apps may live in one process). */
export interface AppMetrics {
  /** The `Content-Type` of the exposition. */
  readonly contentType: string;
  /** The exposition text, backlog read (or left out) first. */
  scrape(): Promise<string>;
  /** One request answered: `route` is the template the request log uses, never a raw URL. */
  observeRequest(route: string, status: number, seconds: number): void;
  /** The rate limiter counted a request in process memory: give it as the limiter's `onFailOpen`. */
  countRateLimitFailOpen(cause: FailOpenCause): void;
  /** Events left out of a conflict calendar's feed as unreadable, counted on each fetch of the feed. */
  countSkippedCalendarEvents(count: number): void;
  /** One webhook delivery attempt ended so. */
  countWebhookDelivery(outcome: DeliveryOutcome): void;
  /** One attempt to write a booking's event to its host's CalDAV calendar ended so. */
  countCalendarSync(outcome: SyncOutcome): void;
}

const DELIVERY_OUTCOMES: readonly DeliveryOutcome[] = ['succeeded', 'retrying', 'failed', 'disabled', 'released'];
const SYNC_OUTCOMES: readonly SyncOutcome[] = ['synced', 'retry', 'failed', 'superseded', 'lease_lost'];

/**
 * Builds the metrics `GET /metrics` exposes. Names follow Prometheus
 * conventions: a `schedule_` prefix, base units (seconds), `_total` on
 * counters. Label values are bounded: route templates, status codes, causes.
 */
export function createAppMetrics(options: AppMetricsOptions): AppMetrics {
  const registry = new Registry();
  // Started by the first scrape: a process nobody scrapes (`schedule mcp` on
  // stdio) keeps no event-loop monitor waking it every 10 ms.
  let processMetricsStarted = options.processMetrics === false;

  const requests = new Counter({
    name: 'schedule_http_requests_total',
    help: 'HTTP requests answered, by route template and status code.',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'schedule_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being written, by route template.',
    labelNames: ['route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const failOpens = new Counter({
    name: 'schedule_rate_limit_fail_open_total',
    help: 'Requests counted in process memory because the shared rate-limit store (Redis) failed (error) or was slow (timeout).',
    labelNames: ['cause'] as const,
    registers: [registry],
  });
  // Both causes read 0 from the start, so that rate() and increase() see the first fail-open.
  for (const cause of ['error', 'timeout'] as const) failOpens.inc({ cause }, 0);
  // No label for the feed: its URL may carry a secret, and feeds are many.
  const skippedEvents = new Counter({
    name: 'schedule_calendar_events_skipped_total',
    help: 'Events of conflict calendars (feeds and CalDAV accounts) left out because they cannot be read, counted on each fetch (the log names the calendar and UID).',
    registers: [registry],
  });

  // No label for the webhook: webhooks are many, and their URLs are their owners'.
  const deliveries = new Counter({
    name: 'schedule_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome: succeeded, retrying (failed, tried again later), failed (no attempt left, or the webhook stopped), disabled (410 Gone), released (not recorded: the process stopped mid-attempt, or its lease on the delivery ran out).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of DELIVERY_OUTCOMES) deliveries.inc({ outcome }, 0);
  const calendarSyncs = new Counter({
    name: 'schedule_calendar_syncs_total',
    help: "Attempts to write a booking's event to its host's CalDAV calendar, by outcome: synced, retry (failed, tried again later), failed (no attempt left, or changed in the calendar by someone else), superseded (the booking changed meanwhile; written again), lease_lost (not recorded: the claim ran out).",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of SYNC_OUTCOMES) calendarSyncs.inc({ outcome }, 0);

  if (options.backlog) {
    const read = options.backlog;
    const timeoutMs = options.backlogTimeoutMs ?? 1000;
    const cacheMs = options.backlogCacheMs ?? 1000;
    let last: { atMs: number; counted: Promise<Backlog | undefined> } | undefined;
    // Concurrent scrapes share one count, and a count is reused for cacheMs.
    const current = () => {
      const nowMs = options.clock.now();
      if (!last || nowMs - last.atMs >= cacheMs) {
        last = { atMs: nowMs, counted: within(read(), timeoutMs).then((settled) => (settled.kind === 'done' ? settled.value : undefined)) };
      }
      return last.counted;
    };
    // Unknown is left out, not guessed: a sample of 0 would read as "all
    // delivered" and -1 would skew sums; absent() alerts on the gap.
    const gauge = (name: string, help: string, pick: (backlog: Backlog) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const backlog = await current();
          if (backlog === undefined) this.remove();
          else this.set(pick(backlog));
        },
      });
    gauge(
      'schedule_outbox_events_undispatched',
      'Outbox events not dispatched yet (counted up to 100000); absent when the database did not answer the scrape.',
      (b) => b.events,
    );
    gauge(
      'schedule_notifications_pending',
      'Mail due and still to be sent (counted up to 100000; reminders not yet due are not); absent when the database did not answer the scrape.',
      (b) => b.mail,
    );
  }

  return {
    contentType: registry.contentType,
    scrape() {
      if (!processMetricsStarted) {
        processMetricsStarted = true;
        collectDefaultMetrics({ register: registry });
      }
      return registry.metrics();
    },
    observeRequest(route, status, seconds) {
      requests.inc({ route, status: String(status) });
      duration.observe({ route }, seconds);
    },
    countRateLimitFailOpen(cause) {
      failOpens.inc({ cause });
    },
    countSkippedCalendarEvents(count) {
      skippedEvents.inc(count);
    },
    countWebhookDelivery(outcome) {
      deliveries.inc({ outcome });
    },
    countCalendarSync(outcome) {
      calendarSyncs.inc({ outcome });
    },
  };
}
