import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { ManageLinkWriter } from '../src/manage-links/manage-link.js';
import {
  type DispatchDeps,
  type DispatchReport,
  dispatchNotifications,
  MAX_SEND_ATTEMPTS,
} from '../src/notifications/dispatch-notifications.js';
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
  mailRowsOf,
  recordingMailer,
  mailSeriesBody as seriesBody,
} from './support/mail-workspace.js';
import { changeSeriesHost, createSeries, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// Booking mail is queued with the change that it reports (docs/mail.md):
// what each row holds, who gets one, and what a series' occurrences do not send.

const NOTHING: DispatchReport = { sent: 0, suppressed: 0, failed: 0, deferred: 0 };
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

describe.each(storeFixtures())('booking mail on $name', (fixture) => {
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
    await loadMailWorkspace({ store, clock });
    mailer = recordingMailer();
  });
  afterAll(() => fixture.cleanup());

  // Four at a time, as the service sends: each batch's opt-outs are read at once.
  const dispatch = (extra: Partial<DispatchDeps> = {}) =>
    dispatchNotifications({ store, clock, ids: randomIds, mailer, ...extra }, { concurrency: 4 });
  const book = async (start: string) => {
    const { outcome } = await createBooking(deps, hana, { event_type_id: ET_MAIL.meet, start, attendee: ATTENDEE }, `create-${start}`);
    return (outcome as { data: { uid: string } }).data.uid;
  };
  const rowsAbout = async (kind: string) =>
    (await mailRowsOf(store))
      .filter((r) => r.kind === kind)
      .map(({ recipient, booking_uid, series_uid, status, payload }) => ({ recipient, booking_uid, series_uid, status, payload }));

  it('a reschedule queues one mail to the host and one to the attendee, each in their own zone, with the booking as it now is', async () => {
    const uid = await book('2026-03-25T10:00:00Z');
    clock.set('2026-03-21T00:00:00Z');
    await rescheduleBooking(deps, hana, uid, { start: '2026-03-26T10:00:00Z', reason: 'Clash' }, 'move');

    const common = {
      title: 'Meet between Hana Host and Bob Guest',
      event_type_name: 'Meet',
      host: { email: HOST_EMAIL, name: 'Hana Host' },
      attendee: { email: 'bob@guest.test', name: 'Bob Guest' },
      guests: [],
      start_at: '2026-03-26T10:00:00.000Z',
      end_at: '2026-03-26T11:00:00.000Z',
      sequence: 2,
      status: 'confirmed',
      location: { type: 'conference', url: `https://meet.test/${uid}`, value: null },
      previous: { start_at: '2026-03-25T10:00:00.000Z', end_at: '2026-03-25T11:00:00.000Z' },
      reason: 'Clash',
    };
    expect((await rowsAbout('booking_rescheduled')).sort((a, b) => a.recipient.localeCompare(b.recipient))).toEqual([
      {
        recipient: 'bob@guest.test',
        booking_uid: uid,
        series_uid: null,
        status: 'pending',
        payload: { ...common, role: 'attendee', timezone: 'Asia/Tokyo' },
      },
      {
        recipient: HOST_EMAIL,
        booking_uid: uid,
        series_uid: null,
        status: 'pending',
        payload: { ...common, role: 'host', timezone: 'Europe/Berlin' },
      },
    ]);
  });

  it('a cancel repeated changes nothing and queues no second notice', async () => {
    const uid = await book('2026-03-25T10:00:00Z');
    await cancelBooking(deps, hana, uid, {}, 'cancel-1');
    await cancelBooking(deps, hana, uid, {}, 'cancel-2');
    expect((await rowsAbout('booking_canceled')).map((r) => r.recipient).sort()).toEqual(['bob@guest.test', HOST_EMAIL]);
  });

  it("a series' own writes to its occurrences tell the attendee alone, one booking mail an occurrence: create, pause, resume, pattern change", async () => {
    const created = await createSeries(deps, hana, seriesBody());
    const seriesUid = (created.outcome as { data: { series: { uid: string } } }).data.series.uid;
    await pauseSeries(deps, hana, seriesUid);
    await resumeSeries(deps, hana, seriesUid);
    await updateSeries(deps, hana, seriesUid, { time: '11:00' }, { ifMatch: '*' });

    const rows = await mailRowsOf(store);
    expect(rows.filter((r) => r.kind.startsWith('series_')).map((r) => r.kind)).toEqual(['series_confirmation']);
    // Create: 3 invites. Resume: 3 replacements, each with the cancellation of the one the pause held. PATCH: 3 more of each.
    const count = (kind: string) => rows.filter((r) => r.kind === kind).length;
    expect([count('booking_created'), count('booking_canceled')]).toEqual([9, 6]);
    expect(new Set(rows.map((r) => `${r.recipient} ${r.payload.role ?? 'series'}`))).toEqual(
      new Set(['bob@guest.test series', 'bob@guest.test attendee']),
    );
  });

  it('an occurrence moved through the booking endpoints tells host and attendee, unless the series does not notify the attendee', async () => {
    const notifying = await createSeries(deps, hana, seriesBody());
    const silent = await createSeries(deps, hana, { ...seriesBody(), notify_invitee: false, starts_on: '2026-04-20' });
    const first = (created: typeof notifying) => (created.outcome as { data: { occurrences: { uid: string }[] } }).data.occurrences[0]!.uid;

    await rescheduleBooking(deps, hana, first(notifying), { start: '2026-03-24T10:00:00Z' }, 'move-notifying');
    await rescheduleBooking(deps, hana, first(silent), { start: '2026-04-21T10:00:00Z' }, 'move-silent');

    expect(
      (await rowsAbout('booking_rescheduled'))
        .map((r) => `${r.booking_uid === first(silent) ? 'silent' : 'notifying'} ${r.recipient}`)
        .sort(),
    ).toEqual(['notifying bob@guest.test', `notifying ${HOST_EMAIL}`, `silent ${HOST_EMAIL}`]);
  });

  it("notify_invitee turned off after the mail was queued: the attendee's booking mail about an occurrence is suppressed, the host's still goes", async () => {
    const created = await createSeries(deps, hana, seriesBody());
    const { series, occurrences } = (created.outcome as { data: { series: { uid: string }; occurrences: { uid: string }[] } }).data;
    expect(await dispatch()).toEqual({ ...NOTHING, sent: 4 });
    mailer.delivered.length = 0;
    await cancelBooking(deps, hana, occurrences[0]!.uid, {}, 'cancel-occurrence');
    await updateSeries(deps, hana, series.uid, { notify_invitee: false }, { ifMatch: '*' });

    expect(await dispatch()).toEqual({ ...NOTHING, sent: 1, suppressed: 1 });
    expect(mailer.delivered.map((m) => [m.kind, m.to])).toEqual([['booking_canceled', HOST_EMAIL]]);
  });

  it('a webhook_paused notice (queued by the webhook delivery) is sent to the owner as plain mail', async () => {
    await store.db
      .insertInto('notifications')
      .values({
        id: '70000000-0000-4000-8000-0000000000f1',
        kind: 'webhook_paused',
        series_uid: null,
        booking_uid: null,
        recipient: HOST_EMAIL,
        payload_json: JSON.stringify({
          webhook_id: 'wh_1',
          url: 'https://hooks.example/in',
          description: null,
          failing_since: '2026-03-18T22:00:00.000Z',
          consecutive_failures: 9,
        }),
        status: 'pending',
        attempts: 0,
        next_attempt_at: MAIL_T0,
        created_at: MAIL_T0,
        sent_at: null,
      })
      .execute();

    expect(await dispatch()).toEqual({ ...NOTHING, sent: 1 });
    const [mail] = mailer.delivered;
    expect({ ...mail, html: undefined }).toEqual({
      id: '70000000-0000-4000-8000-0000000000f1',
      to: HOST_EMAIL,
      subject: 'Webhook paused: https://hooks.example/in',
      text: [
        'Hello,',
        '',
        'Your webhook https://hooks.example/in was paused: its last 9 deliveries failed, the first of them on Wednesday 18 March 2026, 22:00 (UTC).',
        'While it is paused, no events are queued for it: they are missed.',
        '',
        'Once the receiver answers again, resume the webhook:',
        '  - schedule webhooks update wh_1 --status active',
        '  - or PATCH /v1/webhooks/wh_1 with {"status": "active"}',
        '',
        'Resuming delivers new events only. To recover the bookings that changed meanwhile, run the catch-up sweep from when the failures began:',
        '  - GET /v1/bookings?updated_since=2026-03-18T22:00:00.000Z&sort=updated_at_asc',
      ].join('\n'),
      html: undefined,
      kind: 'webhook_paused',
      seriesUid: null,
      bookingUid: null,
    });
    expect((await mailRowsOf(store)).map((r) => r.status)).toEqual(['sent']);
  });

  // The manage link in booking mail (docs/booking-page.md): the attendee's mail about a booking they can still move
  // or cancel carries it; the host's, a cancellation and a series mail do not; a link that cannot be written holds
  // the mail back as a send that failed, never sends it without one.
  describe('manage links', () => {
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
      const body = seriesBody({ count: 2 });
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
});
