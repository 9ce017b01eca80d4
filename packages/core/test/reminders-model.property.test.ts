import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import { REMINDER_GRACE_MS, type ReminderRule, reminderRuleSchema } from '../src/reminders/reminder-rules.js';
import type { Store } from '../src/storage/store.js';
import { MINUTE_MS, toTimestamp } from '../src/time.js';
import { outboxOf } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { clearMailWrites, recordingMailer } from './support/mail-workspace.js';
import { loadReminderWorkspace, REMIND_T0, reminderCalls, reminderRowsOf } from './support/reminder-workspace.js';
import { storeFixtures } from './support/stores.js';

// Random rules, then random creates, moves, cancels and jumps of the clock
// with a dispatch pass after each jump, against a model small enough to be
// obviously right: a reminder is owed from the write that makes it due in
// the future, dropped by the next write of its booking, and at the first
// pass at or after its moment it is sent if that pass is within the grace
// window (and, before the start, the meeting has not begun), else expired.
// Every reminder sent is sent once: the store's sent rows, the mails handed
// over and the `booking.reminder` events all match the model's.

const DURATION = 30 * MINUTE_MS;

const rule: fc.Arbitrary<ReminderRule> = fc
  .record({
    minutes: fc.constantFrom(0, 5, 20, 60, 90, 1440),
    relative_to: fc.constantFrom('start' as const, 'end' as const),
    to: fc.constantFrom('attendee' as const, 'host' as const, 'both' as const),
    via: fc.constantFrom('email' as const, 'email' as const, 'webhook' as const),
  })
  .map((r) => reminderRuleSchema.parse(r));

type Command =
  | { kind: 'create'; halfHours: number }
  | { kind: 'move'; target: number; halfHours: number }
  | { kind: 'cancel'; target: number }
  /** Moves the clock on and runs one dispatch pass. */
  | { kind: 'pass'; minutes: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), halfHours: fc.integer({ min: 1, max: 120 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('move' as const), target: fc.nat(9), halfHours: fc.integer({ min: 1, max: 120 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), target: fc.nat(9) }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('pass' as const), minutes: fc.constantFrom(1, 4, 10, 14, 16, 45, 61, 400, 1500) }),
  },
);

interface Owed {
  readonly uid: string;
  readonly rule: ReminderRule;
  readonly role: 'attendee' | 'host';
  readonly dueMs: number;
  readonly startMs: number;
  state: 'pending' | 'sent' | 'expired' | 'dropped';
}

/** The model's reminders of a booking written at `nowMs` with these rules. */
function owedFor(uid: string, startMs: number, rules: readonly ReminderRule[], nowMs: number): Owed[] {
  return rules.flatMap((r) => {
    const dueMs = r.relative_to === 'start' ? startMs - r.minutes * MINUTE_MS : startMs + DURATION + r.minutes * MINUTE_MS;
    if (dueMs <= nowMs) return [];
    const roles = r.to === 'both' ? (['attendee', 'host'] as const) : [r.to];
    return roles.map((role) => ({ uid, rule: r, role, dueMs, startMs, state: 'pending' as const }));
  });
}

describe.each(storeFixtures())('reminders against a model on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  const clock = manualClock(REMIND_T0);
  let rhea: Principal;

  beforeAll(async () => {
    store = await fixture.open();
    deps = testDeps(store, clock);
  });
  afterAll(() => fixture.cleanup());

  it('sends every reminder once at its moment, or not at all, as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rule, { minLength: 1, maxLength: 3 }),
        fc.array(command, { minLength: 4, maxLength: 18 }),
        async (rules, commands) => {
          clock.set(REMIND_T0);
          await clearMailWrites(store);
          rhea = await loadReminderWorkspace({ store, clock }, { rules });
          const calls = reminderCalls(deps, () => rhea);
          const bookings: { uid: string; startMs: number; live: boolean }[] = [];
          const owed: Owed[] = [];
          let mails = 0;
          let events = 0;
          const drop = (uid: string) => {
            for (const o of owed) if (o.uid === uid && o.state === 'pending') o.state = 'dropped';
          };
          const taken = (startMs: number) => bookings.some((b) => b.live && b.startMs === startMs);
          const grid = (halfHours: number) => Math.ceil(clock.now() / DURATION) * DURATION + halfHours * DURATION;
          for (const c of commands) {
            const nowMs = clock.now();
            if (c.kind === 'create') {
              const startMs = grid(c.halfHours);
              if (taken(startMs)) continue;
              const uid = await calls.book(toTimestamp(startMs));
              bookings.push({ uid, startMs, live: true });
              owed.push(...owedFor(uid, startMs, rules, nowMs));
            } else if (c.kind === 'move' || c.kind === 'cancel') {
              const future = bookings.filter((b) => b.live && b.startMs > nowMs);
              const target = future[c.target % Math.max(1, future.length)];
              if (target === undefined) continue;
              if (c.kind === 'cancel') {
                drop(target.uid);
                await calls.cancel(target.uid);
                target.live = false;
              } else {
                const startMs = grid(c.halfHours);
                if (taken(startMs)) continue;
                drop(target.uid);
                await calls.move(target.uid, toTimestamp(startMs));
                target.startMs = startMs;
                owed.push(...owedFor(target.uid, startMs, rules, nowMs));
              }
            } else {
              clock.set(toTimestamp(nowMs + c.minutes * MINUTE_MS));
              const t = clock.now();
              const mailer = recordingMailer();
              await dispatchNotifications({ store, clock, ids: randomIds, mailer }, { limit: 10_000 });
              mails += mailer.delivered.filter((m) => m.kind === 'booking_reminder').length;
              for (const o of owed) {
                if (o.state !== 'pending' || o.dueMs > t) continue;
                const late = t > o.dueMs + REMINDER_GRACE_MS || (o.rule.relative_to === 'start' && t >= o.startMs);
                o.state = late ? 'expired' : 'sent';
              }
              events = (await outboxOf(store)).filter((e) => e.event_type === 'booking.reminder').length;
            }
          }
          const key = (uid: string, role: string, r: ReminderRule, dueMs: number) =>
            `${uid} ${role} ${r.minutes}${r.relative_to} ${r.via} ${toTimestamp(dueMs)}`;
          const fromStore = (await reminderRowsOf(store)).map((row) => {
            const payload = JSON.parse(row.payload_json) as { role: string; rule: ReminderRule };
            return `${key(row.booking_uid!, payload.role, payload.rule, Date.parse(row.due_at))} ${row.status}`;
          });
          const fromModel = owed.filter((o) => o.state !== 'dropped').map((o) => `${key(o.uid, o.role, o.rule, o.dueMs)} ${o.state}`);
          expect(fromStore.sort()).toEqual(fromModel.sort());
          const sent = owed.filter((o) => o.state === 'sent');
          expect(mails).toBe(sent.filter((o) => o.rule.via === 'email').length);
          expect(events).toBe(sent.filter((o) => o.rule.via === 'webhook').length);
        },
      ),
      { numRuns: 30 },
    );
  });
});
