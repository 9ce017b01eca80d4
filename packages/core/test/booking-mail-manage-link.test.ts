import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { ManageLinkWriter } from '../src/manage-links/manage-link.js';
import { type DispatchDeps, dispatchNotifications, MAX_SEND_ATTEMPTS } from '../src/notifications/dispatch-notifications.js';
import type { Mail } from '../src/notifications/mailer.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, createBooking, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import {
  clearMailWrites,
  ET_MAIL,
  HOST_EMAIL,
  IVY,
  loadMailWorkspace,
  MAIL_T0,
  mailSeriesBody,
  recordingMailer,
} from './support/mail-workspace.js';
import { changeSeriesHost, createSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// The manage link in booking mail (docs/booking-page.md): the attendee's mail
// about a booking they can still move or cancel carries it; the host's, a
// cancellation and a series mail do not; a link that cannot be written
// holds the mail back as a send that failed, never sends it without one.

const ATTENDEE = { email: 'bob@guest.test', name: 'Bob Guest', timezone: 'Asia/Tokyo' };
const LINE = 'To reschedule or cancel: ';

/** A writer that names what it was asked for, and records each ask. */
function namingWriter(): ManageLinkWriter & { asked: [string, string][] } {
  const asked: [string, string][] = [];
  const write = async (uid: string, endAt: string) => {
    asked.push([uid, endAt]);
    return `https://book.test/booking/${uid}/${endAt}`;
  };
  return Object.assign(write, { asked });
}

describe.each(storeFixtures())('manage links in booking mail on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let mailer: ReturnType<typeof recordingMailer>;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(MAIL_T0);
    deps = testDeps(store, clock);
    hana = await loadMailWorkspace({ store, clock });
  });
  beforeEach(async () => {
    clock.set(MAIL_T0);
    await clearMailWrites(store);
    mailer = recordingMailer();
  });
  afterAll(() => fixture.cleanup());

  const dispatch = (extra: Partial<DispatchDeps> = {}) =>
    dispatchNotifications({ store, clock, ids: randomIds, mailer, ...extra }, { concurrency: 4 });
  const book = async (start: string) => {
    const { outcome } = await createBooking(deps, hana, { event_type_id: ET_MAIL.meet, start, attendee: ATTENDEE }, `create-${start}`);
    return (outcome as { data: { uid: string } }).data.uid;
  };
  /** Each delivered mail as its recipient, subject and manage line (or null). */
  const lines = () =>
    mailer.delivered
      .map((m) => ({ to: m.to, subject: m.subject, manage: m.text.split('\n').find((l) => l.startsWith(LINE)) ?? null }))
      .sort((a, b) => `${a.to} ${a.subject}`.localeCompare(`${b.to} ${b.subject}`));

  it("a booking's attendee mail ends with their link, written for the booking and its end; the host's has none", async () => {
    const uid = await book('2026-03-25T10:00:00Z');
    const write = namingWriter();
    expect(await dispatch({ manageLinks: write })).toEqual({ sent: 2, suppressed: 0, failed: 0, deferred: 0 });
    expect(write.asked).toEqual([[uid, '2026-03-25T11:00:00.000Z']]);
    expect(lines()).toEqual([
      {
        to: 'bob@guest.test',
        subject: 'Booked: Meet with Hana Host',
        manage: `${LINE}https://book.test/booking/${uid}/2026-03-25T11:00:00.000Z`,
      },
      { to: HOST_EMAIL, subject: 'New booking: Meet with Bob Guest', manage: null },
    ]);
    const attendeeMail = mailer.delivered.find((m) => m.to === 'bob@guest.test') as Mail;
    expect(attendeeMail.text.split('\n').at(-1)).toBe(`${LINE}https://book.test/booking/${uid}/2026-03-25T11:00:00.000Z`);
  });

  it('a reschedule carries the link of the new booking; a cancellation none', async () => {
    const uid = await book('2026-03-25T10:00:00Z');
    clock.set('2026-03-21T00:00:00Z');
    const moved = await rescheduleBooking(deps, hana, uid, { start: '2026-03-26T10:00:00Z' }, 'move');
    const newUid = (moved.outcome.data as { uid: string }).uid;
    await cancelBooking(deps, hana, newUid, { reason: 'No longer needed' }, 'cancel');
    await store.db.deleteFrom('notifications').where('kind', '=', 'booking_created').execute();
    const write = namingWriter();
    expect(await dispatch({ manageLinks: write })).toMatchObject({ sent: 4, failed: 0, deferred: 0 });
    expect(write.asked).toEqual([[newUid, '2026-03-26T11:00:00.000Z']]);
    expect(lines()).toEqual([
      { to: 'bob@guest.test', subject: 'Canceled: Meet with Hana Host', manage: null },
      {
        to: 'bob@guest.test',
        subject: 'Moved: Meet with Hana Host',
        manage: `${LINE}https://book.test/booking/${newUid}/2026-03-26T11:00:00.000Z`,
      },
      { to: HOST_EMAIL, subject: 'Canceled: Meet with Bob Guest', manage: null },
      { to: HOST_EMAIL, subject: 'Moved: Meet with Bob Guest', manage: null },
    ]);
  });

  it("a series' confirmation carries none; each occurrence's invite and its change of host carry the occurrence's link", async () => {
    const body = mailSeriesBody({ count: 2 });
    const created = (await createSeries(deps, hana, body)).outcome.data as { series: { uid: string }; occurrences: { uid: string }[] };
    const [first, second] = created.occurrences.map((o) => o.uid) as [string, string];
    const write = namingWriter();
    await dispatch({ manageLinks: write });
    // Two invites, each with its occurrence's link, and the confirmation with none (the order of a batch is not fixed).
    const links = [
      `${LINE}https://book.test/booking/${first}/2026-03-23T10:00:00.000Z`,
      `${LINE}https://book.test/booking/${second}/2026-03-30T09:00:00.000Z`,
    ];
    const toBob = lines().filter((l) => l.to === 'bob@guest.test');
    expect(toBob.map((l) => String(l.manage)).sort()).toEqual([...links, 'null'].sort());
    expect(toBob.find((l) => l.manage === null)?.subject).toBe('Booked: Meet with Hana Host');
    expect(write.asked.map(([uid]) => uid).sort()).toEqual([first, second].sort());

    mailer = recordingMailer();
    await changeSeriesHost(deps, hana, created.series.uid, { host_user_id: IVY });
    await dispatch({ manageLinks: write });
    const changed = lines().filter((l) => l.to === 'bob@guest.test');
    expect(changed.map((l) => l.manage).sort()).toEqual([...links].sort());
    expect(changed.map((l) => l.subject)).toEqual(['Changed: Meet with Ivy Host', 'Changed: Meet with Ivy Host']);
  });
  it('writes no link without a writer', async () => {
    await book('2026-03-25T10:00:00Z');
    await dispatch();
    expect(lines().map((l) => l.manage)).toEqual([null, null]);
  });

  it('a link that cannot be written holds the attendee mail back as a failed send, and it goes with its link on the retry', async () => {
    const uid = await book('2026-03-25T10:00:00Z');
    const failures: unknown[][] = [];
    const away = new Error('database away');
    const failing: ManageLinkWriter = async () => {
      throw away;
    };
    const onSendFailed = (error: unknown, n: { kind: string; attempts: number; givenUp: boolean }) =>
      failures.push([error, n.kind, n.attempts, n.givenUp]);
    expect(await dispatch({ manageLinks: failing, onSendFailed })).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 1 });
    expect(lines().map((l) => l.to)).toEqual([HOST_EMAIL]);
    expect(failures).toEqual([[away, 'booking_created', 1, false]]);
    const [row] = await store.db
      .selectFrom('notifications')
      .select(['status', 'attempts', 'next_attempt_at'])
      .where('recipient', '=', 'bob@guest.test')
      .execute();
    expect(row).toEqual({ status: 'pending', attempts: 1, next_attempt_at: '2026-03-20T00:00:02.000Z' });

    clock.set('2026-03-20T00:00:02.000Z');
    mailer = recordingMailer();
    expect(await dispatch({ manageLinks: namingWriter() })).toMatchObject({ sent: 1 });
    expect(lines()).toEqual([
      {
        to: 'bob@guest.test',
        subject: 'Booked: Meet with Hana Host',
        manage: `${LINE}https://book.test/booking/${uid}/2026-03-25T11:00:00.000Z`,
      },
    ]);
  });

  it('a failed link waits longer after each attempt, also with nobody told of failures', async () => {
    await book('2026-03-25T10:00:00Z');
    await store.db.updateTable('notifications').set({ attempts: 2 }).where('recipient', '=', 'bob@guest.test').execute();
    const failing: ManageLinkWriter = async () => {
      throw new Error('database away');
    };
    expect(await dispatch({ manageLinks: failing })).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 1 });
    const [row] = await store.db
      .selectFrom('notifications')
      .select(['status', 'attempts', 'next_attempt_at'])
      .where('recipient', '=', 'bob@guest.test')
      .execute();
    // The third attempt failed: 2 s doubled twice.
    expect(row).toEqual({ status: 'pending', attempts: 3, next_attempt_at: '2026-03-20T00:00:08.000Z' });
  });

  it('a booking mail that names no booking carries no link, and asks for none', async () => {
    await book('2026-03-25T10:00:00Z');
    await store.db.updateTable('notifications').set({ booking_uid: null }).execute();
    const write = namingWriter();
    expect(await dispatch({ manageLinks: write })).toMatchObject({ sent: 2, deferred: 0 });
    expect(write.asked).toEqual([]);
    expect(lines().map((l) => l.manage)).toEqual([null, null]);
  });

  it('the last attempt whose link cannot be written is given up', async () => {
    await book('2026-03-25T10:00:00Z');
    await store.db
      .updateTable('notifications')
      .set({ attempts: MAX_SEND_ATTEMPTS - 1 })
      .where('recipient', '=', 'bob@guest.test')
      .execute();
    const failures: boolean[] = [];
    const failing: ManageLinkWriter = async () => {
      throw new Error('database away');
    };
    expect(await dispatch({ manageLinks: failing, onSendFailed: (_e, n) => failures.push(n.givenUp) })).toEqual({
      sent: 1,
      suppressed: 0,
      failed: 1,
      deferred: 0,
    });
    expect(failures).toEqual([true]);
    const [row] = await store.db
      .selectFrom('notifications')
      .select(['status', 'attempts'])
      .where('recipient', '=', 'bob@guest.test')
      .execute();
    expect(row).toEqual({ status: 'failed', attempts: MAX_SEND_ATTEMPTS });
  });
});
