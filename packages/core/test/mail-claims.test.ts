import fc from 'fast-check';
import { CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { dueMail } from '../src/notifications/claim-mail.js';
import { startDispatchLoop } from '../src/notifications/dispatch-loop.js';
import { type DispatchDeps, dispatchPass } from '../src/notifications/dispatch-notifications.js';
import type { Mail, Mailer } from '../src/notifications/mailer.js';
import { HOLD_LEASE_MS } from '../src/series/series-hold.js';
import type { Store } from '../src/storage/store.js';
import { toTimestamp } from '../src/time.js';
import { createBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { clearMailWrites, ET_MAIL, loadMailWorkspace, MAIL_T0 } from './support/mail-workspace.js';
import { storeFixtures } from './support/stores.js';

// Mail is claimed a batch at a time (claim-mail.ts) and sent `concurrency`
// at once; several dispatchers (processes) share one queue. What must hold:
// a pass never claims more than its width, two dispatchers at once take
// different mail, every due mail goes exactly once, and a backlog drains
// without waiting a tick per pass.

const BOOKINGS = 30;
const ATTENDEE = { email: 'bob@guest.test', name: 'Bob Guest', timezone: 'UTC' };

/** A mailer whose sends wait until the test lets them go: the test sees what is in flight, and when. */
function gatedMailer() {
  const waiting: { mail: Mail; go: () => void }[] = [];
  let arrived: () => void = () => {};
  return {
    waiting,
    /** Resolves once `n` sends are waiting. */
    async until(n: number) {
      while (waiting.length < n) await new Promise<void>((resolve) => (arrived = resolve));
    },
    releaseAll() {
      for (const send of waiting.splice(0)) send.go();
    },
    mailer: {
      send: (mail: Mail) =>
        new Promise((resolve) => {
          waiting.push({ mail, go: () => resolve(undefined) });
          arrived();
        }),
    } satisfies Mailer,
  };
}

describe.each(storeFixtures())('mail claims on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let hana: Principal;
  /** Every queued mail's id, oldest first: two per booking (host and attendee). */
  let allIds: string[];

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(MAIL_T0);
    await clearMailWrites(store);
    hana = await loadMailWorkspace({ store, clock });
    const deps = testDeps(store, clock);
    for (let i = 0; i < BOOKINGS; i++) {
      const start = new Date(Date.parse('2026-04-01T00:00:00Z') + i * 3_600_000).toISOString();
      const { outcome } = await createBooking(deps, hana, { event_type_id: ET_MAIL.meet, start, attendee: ATTENDEE }, `claims-${i}`);
      expect(outcome.status).toBe(201);
    }
    allIds = (await store.db.selectFrom('notifications').select('id').orderBy('created_at').orderBy('id').execute()).map((r) => r.id);
    expect(allIds).toHaveLength(2 * BOOKINGS);
  }, 60_000);
  afterEach(() => vi.useRealTimers());
  afterAll(() => fixture.cleanup());

  /** Makes the first `n` mails due and unsent, and every other one already sent. */
  async function queue(n: number): Promise<string[]> {
    return queueOnly(allIds.slice(0, n));
  }

  /** Makes these mails due and unsent, and every other one already sent. */
  async function queueOnly(due: string[]): Promise<string[]> {
    clock.set(MAIL_T0);
    await store.db
      .updateTable('notifications')
      .set({ status: 'sent', attempts: 1, next_attempt_at: MAIL_T0, sent_at: MAIL_T0 })
      .where('id', 'not in', due)
      .execute();
    await store.db
      .updateTable('notifications')
      .set({ status: 'pending', attempts: 0, next_attempt_at: MAIL_T0, sent_at: null })
      .where('id', 'in', due)
      .execute();
    return due;
  }

  const deps = (mailer: Mailer): DispatchDeps => ({ store, clock, ids: randomIds, mailer });
  const leased = async () =>
    (
      await store.db
        .selectFrom('notifications')
        .select('id')
        .where('next_attempt_at', '=', toTimestamp(clock.now() + HOLD_LEASE_MS))
        .execute()
    )
      .map((r) => r.id)
      .sort();

  it('a pass claims its width and no more, and a second dispatcher meanwhile takes the next mail, not the same', async () => {
    await queue(8);
    const gate = gatedMailer();
    const first = dispatchPass(deps(gate.mailer), { concurrency: 3, limit: 3 });
    await gate.until(3);
    const firstIds = gate.waiting.map((w) => w.mail.id).sort();
    expect(await leased()).toEqual(firstIds);

    const second = dispatchPass(deps(gate.mailer), { concurrency: 3, limit: 3 });
    await gate.until(6);
    const secondIds = gate.waiting.slice(3).map((w) => w.mail.id);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    expect(await leased()).toHaveLength(6);
    gate.releaseAll();
    expect(await first).toEqual({ report: { sent: 3, suppressed: 0, failed: 0, deferred: 0 }, more: true });
    expect(await second).toEqual({ report: { sent: 3, suppressed: 0, failed: 0, deferred: 0 }, more: true });

    // The two left are fewer than a width: the pass takes both and says nothing more is due.
    const last = dispatchPass(deps(gate.mailer), { concurrency: 3, limit: 50 });
    await gate.until(2);
    gate.releaseAll();
    expect(await last).toEqual({ report: { sent: 2, suppressed: 0, failed: 0, deferred: 0 }, more: false });
  });

  it('two dispatchers drain one queue: every due mail is sent exactly once, whatever their widths, limits and pace', async () => {
    const dispatcher = fc.record({
      width: fc.integer({ min: 1, max: 6 }),
      limit: fc.integer({ min: 1, max: 20 }),
      // How many turns of the event loop each send takes: the schedule of the two, not a time.
      pace: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 * BOOKINGS }), dispatcher, dispatcher, async (n, a, b) => {
        const due = await queue(n);
        const sent: string[] = [];
        const run = async ({ width, limit, pace }: typeof a) => {
          let turn = 0;
          const mailer: Mailer = {
            async send(mail) {
              for (let i = pace[turn++ % pace.length]!; i > 0; i--) await new Promise((resolve) => setImmediate(resolve));
              sent.push(mail.id);
              return undefined;
            },
          };
          let total = 0;
          for (let more = true; more; ) {
            const pass = await dispatchPass(deps(mailer), { concurrency: width, limit });
            total += pass.report.sent;
            more = pass.more;
          }
          return total;
        };
        const [sentByA, sentByB] = await Promise.all([run(a), run(b)]);
        expect(sent.length).toBe(new Set(sent).size);
        expect([...sent].sort()).toEqual([...due].sort());
        expect(sentByA + sentByB).toBe(n);
        const left = await store.db.selectFrom('notifications').select('id').where('status', '=', 'pending').execute();
        expect(left).toEqual([]);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('a batch of four booking mails costs three statements: the claim, one opt-out read for its attendee mail, one update of all four', async () => {
    // Two of each: the attendee's mail is read for an opt-out (both at once), the host's never.
    const byRole = async (role: string) =>
      (await store.db.selectFrom('notifications').select(['id', 'payload_json']).orderBy('id').execute())
        .filter((r) => (JSON.parse(r.payload_json) as { role: string }).role === role)
        .slice(0, 2)
        .map((r) => r.id);
    const due = await queueOnly([...(await byRole('attendee')), ...(await byRole('host'))]);
    // Statements run, by kind: a query seen at compile time counts once it returns (a subquery never does).
    const compiled = new Map<unknown, string>();
    const kinds: string[] = [];
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        compiled.set(args.queryId, args.node.kind);
        return args.node;
      },
      transformResult: async (args) => {
        kinds.push(compiled.get(args.queryId) ?? 'unknown');
        return args.result;
      },
    };
    const counted: Store = { ...store, db: store.db.withPlugin(counter) };
    // Each send ends a millisecond after the last, as on a real clock: the four are still marked sent in one update.
    const mailer: Mailer = {
      async send() {
        await new Promise((resolve) => setImmediate(resolve));
        clock.advance(1);
        return undefined;
      },
    };
    const pass = await dispatchPass({ store: counted, clock, ids: randomIds, mailer }, { concurrency: 4, limit: 4 });
    expect(pass.report).toEqual({ sent: 4, suppressed: 0, failed: 0, deferred: 0 });
    expect(kinds.sort()).toEqual(['SelectQueryNode', 'UpdateQueryNode', 'UpdateQueryNode']);
    const rows = await store.db.selectFrom('notifications').select(['id', 'status', 'attempts']).where('id', 'in', due).execute();
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(due.map(() => ['sent', 1]));
  });

  it('the outcomes of one batch are each their own: Message-IDs kept per mail, a failed send waits for its retry', async () => {
    const due = await queue(4);
    const failing = due[2]!;
    const mailer: Mailer = {
      async send(mail) {
        if (mail.id === failing) throw new Error('451 try again later');
        return { messageId: `<${mail.id}@mail.test>` };
      },
    };
    expect(await dispatchPass(deps(mailer), { concurrency: 4, limit: 50 })).toEqual({
      report: { sent: 3, suppressed: 0, failed: 0, deferred: 1 },
      more: false,
    });
    const rows = await store.db
      .selectFrom('notifications')
      .select(['id', 'status', 'attempts', 'next_attempt_at', 'payload_json'])
      .where('id', 'in', due)
      .execute();
    for (const row of rows) {
      const messageId = (JSON.parse(row.payload_json) as { message_id?: string }).message_id;
      if (row.id === failing) {
        expect([row.status, row.attempts, row.next_attempt_at, messageId]).toEqual(['pending', 1, '2026-03-20T00:00:02.000Z', undefined]);
      } else {
        expect([row.status, row.attempts, messageId]).toEqual(['sent', 1, `<${row.id}@mail.test>`]);
      }
    }
  });

  /** The store, failing the statements `fails` picks by kind and count: a database that goes away mid-pass. */
  function failing(fails: (kind: string, n: number) => boolean): Store {
    const seen = new Map<string, number>();
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        const n = (seen.get(args.node.kind) ?? 0) + 1;
        seen.set(args.node.kind, n);
        if (fails(args.node.kind, n)) throw new Error(`database lost at ${args.node.kind} ${n}`);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    return { ...store, db: store.db.withPlugin(plugin) };
  }

  it('a batch whose outcomes cannot be written: the pass fails, and its mail goes again, once, when the claim runs out', async () => {
    const due = await queue(4);
    const delivered: string[] = [];
    const mailer: Mailer = {
      async send(mail) {
        delivered.push(mail.id);
        return undefined;
      },
    };
    // The first update is the claim; the second records the batch.
    const lost = failing((kind, n) => kind === 'UpdateQueryNode' && n === 2);
    await expect(dispatchPass({ store: lost, clock, ids: randomIds, mailer }, { concurrency: 4 })).rejects.toThrow('database lost');
    expect([...delivered].sort()).toEqual([...due].sort());
    // Still claimed: no dispatcher sends them again before the claim runs out.
    expect(await dispatchPass(deps(mailer), { concurrency: 4 })).toEqual({
      report: { sent: 0, suppressed: 0, failed: 0, deferred: 0 },
      more: false,
    });
    clock.advance(HOLD_LEASE_MS);
    expect(await dispatchPass(deps(mailer), { concurrency: 4 })).toEqual({
      report: { sent: 4, suppressed: 0, failed: 0, deferred: 0 },
      more: false,
    });
    expect([...delivered].sort()).toEqual([...due, ...due].sort());
  });

  it('the loop outlives a pass that fails with the database: the failure is reported, and the next pass sends the mail', async () => {
    const due = await queue(6);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors: unknown[] = [];
    const delivered: string[] = [];
    let drained: () => void = () => {};
    const allSent = new Promise<void>((resolve) => (drained = resolve));
    const mailer: Mailer = {
      async send(mail) {
        delivered.push(mail.id);
        if (delivered.length === due.length) drained();
        return undefined;
      },
    };
    let reported: () => void = () => {};
    const firstError = new Promise<void>((resolve) => (reported = resolve));
    const lost = failing((kind, n) => kind === 'UpdateQueryNode' && n === 1);
    const loop = startDispatchLoop(
      { store: lost, clock, ids: randomIds, mailer },
      {
        intervalMs: 60_000,
        concurrency: 4,
        onError: (error) => {
          errors.push(error);
          reported();
        },
      },
    );
    vi.advanceTimersByTime(60_000);
    await firstError;
    expect(delivered).toEqual([]);
    // The loop sets its next timer once the failed pass has settled: wait for that turn, not for a time.
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    vi.advanceTimersByTime(60_000);
    await allSent;
    await loop.stop();
    expect(errors.map(String)).toEqual(['Error: database lost at UpdateQueryNode 1']);
    expect([...delivered].sort()).toEqual([...due].sort());
  });

  it('the claim reads pending mail from its partial index, in order, even in a plan PostgreSQL keeps for any parameters', async () => {
    const compiled = dueMail(store, MAIL_T0, 4).compile();
    let plan: string;
    if (store.dialect === 'postgres') {
      // A generic plan is what a named prepared statement settles on after a few runs; seq scans off, so a tiny table does not hide the index.
      plan = await store.db.transaction().execute(async (trx) => {
        // Settings local to this transaction, and the one statement prepared dropped by name: the pool's connection is left as it was.
        await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
        await sql`set local enable_seqscan = off`.execute(trx);
        await trx.executeQuery(CompiledQuery.raw(`prepare due_mail as ${compiled.sql}`));
        try {
          const values = compiled.parameters.map((p) => (typeof p === 'number' ? p : `'${p}'`)).join(', ');
          const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain execute due_mail(${values})`));
          return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
        } finally {
          await sql`deallocate due_mail`.execute(trx);
        }
      });
      expect(plan).not.toContain('Sort');
    } else {
      const rows = await store.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      plan = rows.rows.map((r) => r.detail).join('\n');
      expect(plan).not.toContain('TEMP B-TREE');
    }
    expect(plan).toContain('notifications_pending');
  });

  it('the loop drains a backlog past one pass at once, without waiting an interval per pass', async () => {
    const due = await queue(2 * BOOKINGS);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const delivered: string[] = [];
    let drained: () => void = () => {};
    let failed: (error: unknown) => void = () => {};
    const allSent = new Promise<void>((resolve, reject) => {
      drained = resolve;
      failed = reject;
    });
    const mailer: Mailer = {
      async send(mail) {
        delivered.push(mail.id);
        if (delivered.length === due.length) drained();
        return undefined;
      },
    };
    // 60 mails are more than a pass (50): the second pass must follow the first at once,
    // since the hour the loop waits between idle passes never passes here.
    const loop = startDispatchLoop(deps(mailer), { intervalMs: 3_600_000, concurrency: 4, onError: failed });
    vi.advanceTimersByTime(3_600_000);
    await allSent;
    await loop.stop();
    expect([...delivered].sort()).toEqual([...due].sort());
  }, 5_000);
});
