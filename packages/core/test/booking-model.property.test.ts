import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { manualClock } from '../src/clock.js';
import { ERROR_CODES, isScheduleError } from '../src/errors.js';
import type { ExecuteDeps, Executed } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { bookingRowsOf, cancelBooking, createBooking, rescheduleBooking } from './support/booking-calls.js';
import { ADMIN, ET, HANA, IVAN, loadBookingWorkspace, resetBookingWorkspace, T0, TOKEN } from './support/booking-workspace.js';
import { testDeps } from './support/deps.js';
import { principalOf } from './support/organization.js';
import { storeFixtures } from './support/stores.js';

// Random sequences of create / cancel / reschedule on two hosts, run through
// `execute` and checked after every step against a model small enough to be
// obviously right. Hour-long meetings on a half-hour grid, so neighbouring
// starts overlap and most interesting conflicts are a step away.

const HOSTS = [
  { id: HANA, eventTypeId: ET.long },
  { id: IVAN, eventTypeId: ET.ivanLong },
] as const;
/** Tuesday 2026-03-03, 09:00 to 11:00 every half hour; each hour-long slot ends by 12:00. */
const STARTS = ['09:00', '09:30', '10:00', '10:30', '11:00'].map((t) => `2026-03-03T${t}:00.000Z`);
const MINUTES = 60;

type Command =
  | { kind: 'create'; host: number; slot: number }
  | { kind: 'cancel'; target: number }
  | { kind: 'reschedule'; target: number; slot: number }
  /** The previous call again, with the same Idempotency-Key and body. */
  | { kind: 'repeat' };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), host: fc.nat(HOSTS.length - 1), slot: fc.nat(STARTS.length - 1) }),
  fc.record({ kind: fc.constant('cancel' as const), target: fc.nat(20) }),
  fc.record({ kind: fc.constant('reschedule' as const), target: fc.nat(20), slot: fc.nat(STARTS.length - 1) }),
  fc.constant({ kind: 'repeat' as const }),
);

interface ModelBooking {
  uid: string;
  host: number;
  slot: number;
  status: 'confirmed' | 'canceled';
  version: number;
}

/** What the model expects of a call: a success, or an error with its code and details. */
type Expected = { ok: true } | { ok: false; code: string; details: Record<string, unknown> };

const SLOT_BUSY: Expected = { ok: false, code: 'slot_unavailable', details: { reason: 'slot_busy' } };

/** Two hour-long meetings on the half-hour grid overlap when their starts are less than two steps apart. */
const overlapping = (a: number, b: number) => Math.abs(a - b) < MINUTES / 30;

function blocked(model: readonly ModelBooking[], host: number, slot: number, except?: string): boolean {
  return model.some((b) => b.uid !== except && b.host === host && b.status === 'confirmed' && overlapping(b.slot, slot));
}

const endOf = (start: string) => new Date(Date.parse(start) + MINUTES * 60_000).toISOString();

/** One planned call: how to make it, what the model expects, and how the model changes on success. */
interface Step {
  readonly run: () => Promise<Executed>;
  readonly expected: Expected;
  /** The booking a successful call changes, if it changes one that exists. */
  readonly changes: string | null;
  readonly apply: (executed: Executed) => void;
}

/** What a call answered, in the model's terms. */
type Seen = { ok: true; executed: Executed } | { ok: false; code: string; details: Record<string, unknown> };

async function send(step: Step): Promise<Seen> {
  try {
    return { ok: true, executed: await step.run() };
  } catch (error) {
    // Every failure is a documented ScheduleError, never anything else.
    if (!isScheduleError(error) || !ERROR_CODES.includes(error.code)) throw error;
    return { ok: false, code: error.code, details: error.details };
  }
}

const shape = (seen: Seen) => (seen.ok ? { ok: true } : seen);

describe.each(storeFixtures())('the booking model on $name', (fixture) => {
  let store: Store;
  let deps: ExecuteDeps;
  let admin: Principal;
  const clock = manualClock(T0);

  beforeAll(async () => {
    store = await fixture.open();
    deps = testDeps(store, clock);
    await loadBookingWorkspace({ store, clock });
    admin = await principalOf({ store, clock }, TOKEN.admin);
    expect(admin.account.id).toBe(ADMIN);
  });
  afterAll(() => fixture.cleanup());

  let keys = 0;

  /** The call a command makes against the model's current state; undefined when it has no booking to act on. */
  function plan(cmd: Exclude<Command, { kind: 'repeat' }>, model: ModelBooking[]): Step | undefined {
    const key = `key-${++keys}`;
    if (cmd.kind === 'create') {
      const host = HOSTS[cmd.host]!;
      const body = { event_type_id: host.eventTypeId, start: STARTS[cmd.slot], attendee: { email: `a${keys}@example.com` } };
      return {
        run: () => createBooking(deps, admin, body, key),
        expected: blocked(model, cmd.host, cmd.slot) ? SLOT_BUSY : { ok: true },
        changes: null,
        apply: (executed) => {
          const uid = (executed.outcome.data as { uid: string }).uid;
          model.push({ uid, host: cmd.host, slot: cmd.slot, status: 'confirmed', version: 1 });
        },
      };
    }
    const booking = model[cmd.target % Math.max(model.length, 1)];
    if (!booking) return undefined;
    if (cmd.kind === 'cancel') {
      const confirmed = booking.status === 'confirmed';
      return {
        run: () => cancelBooking(deps, admin, booking.uid, {}, key),
        // Canceling a canceled booking answers it as it is.
        expected: { ok: true },
        changes: confirmed ? booking.uid : null,
        apply: () => {
          if (confirmed) Object.assign(booking, { status: 'canceled', version: booking.version + 1 });
        },
      };
    }
    const expected: Expected =
      booking.status !== 'confirmed'
        ? { ok: false, code: 'booking_already_cancelled', details: {} }
        : blocked(model, booking.host, cmd.slot, booking.uid)
          ? SLOT_BUSY
          : { ok: true };
    return {
      run: () => rescheduleBooking(deps, admin, booking.uid, { start: STARTS[cmd.slot] }, key),
      expected,
      changes: booking.uid,
      apply: () => Object.assign(booking, { slot: cmd.slot, version: booking.version + 1 }),
    };
  }

  /** The checks made after every step. */
  async function checkAgainst(model: readonly ModelBooking[], before: ReadonlyMap<string, number>, changed: string | null) {
    const rows = await bookingRowsOf(store);
    // Versions never go down, and go up by exactly one for the booking a successful change touched.
    for (const row of rows) {
      const was = before.get(row.uid);
      expect({ uid: row.uid, step: was === undefined ? row.version : row.version - was }).toEqual({
        uid: row.uid,
        step: was === undefined || row.uid === changed ? 1 : 0,
      });
    }
    // No two confirmed bookings of one host overlap.
    const confirmed = rows.filter((r) => r.status === 'confirmed');
    const clashes = confirmed.flatMap((a) =>
      confirmed.filter((b) => a.uid < b.uid && a.host_user_id === b.host_user_id && a.start_at < b.end_at && b.start_at < a.end_at),
    );
    expect(clashes).toEqual([]);
    // The database holds exactly the model's bookings, confirmed and canceled, at the model's versions.
    const byUid = (a: { uid: string }, b: { uid: string }) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);
    const seen = rows.map((r) => ({
      uid: r.uid,
      host: r.host_user_id,
      start_at: r.start_at,
      end_at: r.end_at,
      status: r.status,
      version: r.version,
    }));
    const modelled = model.map((b) => ({
      uid: b.uid,
      host: HOSTS[b.host]!.id,
      start_at: STARTS[b.slot]!,
      end_at: endOf(STARTS[b.slot]!),
      status: b.status,
      version: b.version,
    }));
    expect(seen.sort(byUid)).toEqual(modelled.sort(byUid));
  }

  it('never double-books a host, bumps versions by one per change, and agrees with the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        await resetBookingWorkspace({ store, clock });
        const model: ModelBooking[] = [];
        let last: { step: Step; seen: Seen } | undefined;

        for (const cmd of commands) {
          const before = new Map((await bookingRowsOf(store)).map((r) => [r.uid, r.version]));
          if (cmd.kind === 'repeat') {
            if (!last) continue;
            // A success is replayed as it was; a failure was forgotten, runs again and fails the same way.
            const seen = await send(last.step);
            expect(shape(seen)).toEqual(shape(last.seen));
            if (seen.ok && last.seen.ok) expect(seen.executed).toEqual({ ...last.seen.executed, replayed: true });
            await checkAgainst(model, before, null);
            continue;
          }
          const step = plan(cmd, model);
          if (!step) continue;
          const seen = await send(step);
          expect(shape(seen)).toEqual(step.expected);
          if (seen.ok) step.apply(seen.executed);
          last = { step, seen };
          await checkAgainst(model, before, seen.ok ? step.changes : null);
        }
      }),
      { numRuns: 25 },
    );
  });
});
