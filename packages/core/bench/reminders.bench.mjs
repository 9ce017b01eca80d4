// Benchmark of issue 37: reminders are rows of the mail queue, due at their
// moments, so a dispatch pass must cost what is due, not what is booked.
// For 10,000 and 100,000 future bookings with two reminders each (not due),
// plus 1,000 reminders due now, it times each dispatch pass (50 mails, 4 at
// a time, as `schedule serve` runs them; a mailer that only returns, so a
// pass's time is the database's and core's) until the 1,000 are sent, over
// several rounds. In the same run, as the floor, the same drain of 1,000
// booking mails (`booking_created`, the mail the README's rate is measured
// on). On a SQLite WAL file and, with BENCH_POSTGRES_URL (default the
// tests' server, skipped when it does not answer), a PostgreSQL schema.
// Targets: a pass p50 <= 50 ms; 100k no slower than 10k (ratio about 1); the
// reminders' send rate near the booking mails'. Build first: `npx turbo run build`.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '../dist/index.js';
import { percentiles, writeReport } from './support.mjs';

const SIZES = (process.env.BENCH_REMINDER_SIZES ?? '10000,100000').split(',').map(Number);
const DUE = 1_000;
const ROUNDS = Number(process.env.BENCH_REMINDER_ROUNDS ?? 5);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HOST = '7e57b0b0-0000-4000-8000-00000000000a';
const TYPE = '7e57b0b0-0000-4000-8000-0000000000e1';
const NOW = Date.parse('2026-06-01T09:00:00.000Z');
const MINUTE = 60_000;
const RULES = [
  { minutes: 1440, relative_to: 'start', to: 'attendee', via: 'email', text: null },
  { minutes: 60, relative_to: 'start', to: 'attendee', via: 'email', text: null },
];
const quiet = { send: async () => undefined };

async function seedWorkspace(store, clock) {
  await core.loadWorkspace(
    { store, clock, ids: core.randomIds },
    core.parseWorkspace(
      JSON.stringify({
        organization: { name: 'Bench' },
        users: [{ id: HOST, username: 'rex', email: 'rex@bench.test', name: 'Rex Host', role: 'owner' }],
        event_types: [{ id: TYPE, owner: 'rex', slug: 'call', name: 'Call', duration_minutes: 30, reminders: RULES }],
      }),
    ),
  );
}

/** A booking row as a create writes it, starting at `startMs`. */
function bookingRow(uid, startMs) {
  const at = core.toTimestamp(NOW - 86_400_000);
  return {
    uid,
    version: 1,
    event_type_id: TYPE,
    host_user_id: HOST,
    title: 'Call between Rex Host and Guest',
    status: 'confirmed',
    start_at: core.toTimestamp(startMs),
    end_at: core.toTimestamp(startMs + 30 * MINUTE),
    timezone: 'Europe/Berlin',
    attendee_email: `g-${uid.slice(0, 8)}@guest.test`,
    attendees_json: JSON.stringify([{ email: `g-${uid.slice(0, 8)}@guest.test`, name: 'Guest', timezone: 'Europe/Berlin' }]),
    guests_json: '[]',
    location_json: JSON.stringify({ type: 'conference', url: `https://meet.test/${uid}`, value: null }),
    metadata_json: '{}',
    responses_json: null,
    calendar_sync_status: 'not_applicable',
    calendar_event_id: uid,
    rescheduled_from_uid: null,
    cancelled_at: null,
    cancellation_reason: null,
    no_show_at: null,
    no_show_reason: null,
    series_uid: null,
    pattern_instant: null,
    moved_by_invitee: 0,
    import_hash: null,
    canceled_by: null,
    co_hosts_json: '[]',
    created_at: at,
    updated_at: at,
  };
}

/** A reminder row of `booking` for `rule`, due at its moment. */
function reminderRow(booking, rule) {
  const dueMs = Date.parse(booking.start_at) - rule.minutes * MINUTE;
  return {
    id: core.randomIds.uuid(),
    kind: 'booking_reminder',
    series_uid: null,
    booking_uid: booking.uid,
    recipient: booking.attendee_email,
    payload_json: JSON.stringify({ rule, role: 'attendee', due_at: core.toTimestamp(dueMs) }),
    status: 'pending',
    attempts: 0,
    next_attempt_at: core.toTimestamp(dueMs),
    created_at: booking.created_at,
    sent_at: null,
  };
}

async function insertChunked(db, table, rows) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 500))
      .execute();
}

/** `count` future bookings, each with its two reminders, none due for days. */
async function seedFuture(store, count) {
  for (let i = 0; i < count; i += 10_000) {
    const bookings = Array.from({ length: Math.min(10_000, count - i) }, (_, k) =>
      bookingRow(core.randomIds.uuid(), NOW + 3 * 86_400_000 + (i + k) * 10 * MINUTE),
    );
    await insertChunked(store.db, 'bookings', bookings);
    await insertChunked(
      store.db,
      'notifications',
      bookings.flatMap((b) => RULES.map((rule) => reminderRow(b, rule))),
    );
  }
}

/** DUE bookings starting an hour from now, each with its one-hour reminder due now (within the last minute). */
async function seedDueReminders(store) {
  const bookings = Array.from({ length: DUE }, (_, k) => bookingRow(core.randomIds.uuid(), NOW + 60 * MINUTE - k * 50));
  await insertChunked(store.db, 'bookings', bookings);
  await insertChunked(
    store.db,
    'notifications',
    bookings.map((b) => reminderRow(b, RULES[1])),
  );
}

/** DUE booking mails queued now, of bookings that exist: the floor. */
async function seedDueBookingMail(store) {
  const bookings = Array.from({ length: DUE }, (_, k) => bookingRow(core.randomIds.uuid(), NOW + 5 * 86_400_000 + k * 7 * MINUTE));
  await insertChunked(store.db, 'bookings', bookings);
  const payload = (b) => ({
    role: 'attendee',
    timezone: 'Europe/Berlin',
    title: b.title,
    event_type_name: 'Call',
    host: { email: 'rex@bench.test', name: 'Rex Host' },
    attendee: { email: b.attendee_email, name: 'Guest' },
    guests: [],
    start_at: b.start_at,
    end_at: b.end_at,
    sequence: 1,
    status: 'confirmed',
    location: JSON.parse(b.location_json),
  });
  await insertChunked(
    store.db,
    'notifications',
    bookings.map((b) => ({
      id: core.randomIds.uuid(),
      kind: 'booking_created',
      series_uid: null,
      booking_uid: b.uid,
      recipient: b.attendee_email,
      payload_json: JSON.stringify(payload(b)),
      status: 'pending',
      attempts: 0,
      next_attempt_at: core.toTimestamp(NOW - 1_000),
      created_at: core.toTimestamp(NOW - 1_000),
      sent_at: null,
    })),
  );
}

/** Sends what is due, pass after pass as the loop does, timing each pass; answers the pass times and the drain's rate. */
async function drain(store, clock) {
  const passes = [];
  let sent = 0;
  const started = performance.now();
  for (let more = true; more; ) {
    const t = performance.now();
    const pass = await core.dispatchPass({ store, clock, ids: core.randomIds, mailer: quiet }, { limit: 50, concurrency: 4 });
    passes.push(performance.now() - t);
    sent += pass.report.sent;
    more = pass.more;
  }
  const seconds = (performance.now() - started) / 1000;
  return { passes, sent, perSecond: Math.round(sent / seconds) };
}

async function benchSize(name, open, size) {
  const store = await open();
  try {
    const clock = core.manualClock(core.toTimestamp(NOW));
    await seedWorkspace(store, clock);
    const seeded = performance.now();
    await seedFuture(store, size);
    const seedSeconds = Math.round((performance.now() - seeded) / 100) / 10;
    const reminderPasses = [];
    const mailPasses = [];
    const reminderRates = [];
    const mailRates = [];
    for (let round = 0; round < ROUNDS; round++) {
      await seedDueReminders(store);
      const r = await drain(store, clock);
      if (r.sent !== DUE) throw new Error(`${name}: sent ${r.sent} of ${DUE} reminders`);
      reminderPasses.push(...r.passes);
      reminderRates.push(r.perSecond);
      await seedDueBookingMail(store);
      const m = await drain(store, clock);
      if (m.sent !== DUE) throw new Error(`${name}: sent ${m.sent} of ${DUE} booking mails`);
      mailPasses.push(...m.passes);
      mailRates.push(m.perSecond);
    }
    const notDue = Number(
      (
        await store.db
          .selectFrom('notifications')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const reminder = percentiles(reminderPasses);
    const mail = percentiles(mailPasses);
    return {
      store: name,
      bookings: size,
      reminders_not_due: notDue,
      seed_seconds: seedSeconds,
      reminder_pass_ms: reminder,
      booking_mail_pass_ms: mail,
      reminders_sent_per_second: median(reminderRates),
      booking_mail_sent_per_second: median(mailRates),
      ratio_pass_p50_reminders_over_booking_mail: Math.round((reminder.p50Ms / mail.p50Ms) * 100) / 100,
    };
  } finally {
    await store.close();
  }
}

async function postgresAnswers() {
  const schema = `bench_probe_${randomBytes(3).toString('hex')}`;
  try {
    await core.createPostgresSchema(POSTGRES_URL, schema);
    await core.dropPostgresSchema(POSTGRES_URL, schema);
    return true;
  } catch {
    return false;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'schedule-reminders-bench-'));
const results = [];
const schemas = [];
try {
  for (const size of SIZES) {
    results.push(await benchSize('sqlite (WAL file)', () => core.openStore(join(dir, `r${size}.db`)), size));
  }
  if (await postgresAnswers()) {
    for (const size of SIZES) {
      const schema = `bench_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      results.push(await benchSize('postgres', () => core.openStore(`${POSTGRES_URL}?schema=${schema}`), size));
    }
  }
} finally {
  for (const schema of schemas) await core.dropPostgresSchema(POSTGRES_URL, schema);
  rmSync(dir, { recursive: true, force: true });
}

const growth = (store) => {
  const [small, large] = [
    results.find((r) => r.store === store && r.bookings === SIZES[0]),
    results.find((r) => r.store === store && r.bookings === SIZES.at(-1)),
  ];
  return small && large ? Math.round((large.reminder_pass_ms.p50Ms / small.reminder_pass_ms.p50Ms) * 100) / 100 : null;
};
const report = {
  benchmark: `Reminders: ${DUE} due among ${SIZES.join(' and ')} future bookings with two reminders each; each dispatch pass (50 mails, 4 at a time) timed until they are sent, ${ROUNDS} rounds, beside ${DUE} booking mails drained the same way in the same run`,
  targets: { reminder_pass_p50_ms: '<= 50', pass_p50_largest_over_smallest: 'about 1 (does not grow with what is not due)' },
  results,
  pass_p50_growth: { sqlite: growth('sqlite (WAL file)'), postgres: growth('postgres') },
};
writeReport('reminders', report);
const over = results.filter((r) => r.reminder_pass_ms.p50Ms > 50);
if (over.length > 0) {
  process.stderr.write(`reminder pass p50 over 50 ms: ${over.map((r) => `${r.store} ${r.bookings}`).join(', ')}\n`);
  process.exitCode = 1;
}
