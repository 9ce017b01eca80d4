import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { ManageLinkWriter } from '../src/manage-links/manage-link.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import { REMINDER_GRACE_MS } from '../src/reminders/reminder-rules.js';
import type { Store } from '../src/storage/store.js';
import { outboxOf } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import { clearMailWrites, recordingMailer } from './support/mail-workspace.js';
import {
  ATTENDEE,
  dispatchDue,
  ET_REMIND,
  failingReads,
  loadReminderWorkspace,
  REMIND_T0,
  RHEA,
  RHEA_EMAIL,
  reminderCalls,
  reminderRowsOf,
  reminderWorkspace,
} from './support/reminder-workspace.js';
import { createSeries, updateSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// Reminders (docs/reminders.md): queued with the booking, due at their
// moments, moved with it and dropped with it, each sent once, never too late.

/** Tuesday 10 March 2026, 09:00 UTC (10:00 in Berlin, 18:00 in Tokyo). */
const START = '2026-03-10T09:00:00.000Z';

describe.each(storeFixtures())('reminders on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let rhea: Principal;
  let calls: ReturnType<typeof reminderCalls>;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(REMIND_T0);
    deps = testDeps(store, clock);
    calls = reminderCalls(deps, () => rhea);
  });
  beforeEach(async () => {
    clock.set(REMIND_T0);
    await store.db.deleteFrom('booking_hosts').execute();
    await clearMailWrites(store);
    rhea = await loadReminderWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  /** The rows as `[recipient, due, status]`. */
  const rows = async () => (await reminderRowsOf(store)).map((r) => [r.recipient, r.due_at, r.status]);
  /** Moves the clock and dispatches, answering the reminder mails handed over. */
  const dispatchAt = async (iso: string, extra: { manageLinks?: ManageLinkWriter } = {}) => {
    clock.set(iso);
    const mailer = recordingMailer();
    await dispatchNotifications({ store, clock, ids: randomIds, mailer, ...extra }, { limit: 1000 });
    return mailer.delivered.filter((m) => m.kind === 'booking_reminder');
  };

  it("queues each rule's reminder for each recipient at its moment with the booking, the webhook rule's too", async () => {
    await calls.book(START);
    expect(await rows()).toEqual([
      [ATTENDEE.email, '2026-03-09T09:00:00.000Z', 'pending'],
      [ATTENDEE.email, '2026-03-10T08:00:00.000Z', 'pending'],
      [RHEA_EMAIL, '2026-03-10T08:00:00.000Z', 'pending'],
      [RHEA_EMAIL, '2026-03-10T08:50:00.000Z', 'pending'],
      [ATTENDEE.email, '2026-03-10T10:00:00.000Z', 'pending'],
    ]);
  });

  it('sends each at its moment and never before, in the recipient’s zone, with the manage link before the meeting', async () => {
    const uid = await calls.book(START);
    const links: ManageLinkWriter = async (bookingUid, endAt) => `https://book.test/m/${bookingUid}/${endAt}`;
    expect(await dispatchAt('2026-03-09T08:59:59.999Z', { manageLinks: links })).toEqual([]);
    const [dayBefore, ...others] = await dispatchAt('2026-03-09T09:00:00.000Z', { manageLinks: links });
    expect(others).toEqual([]);
    expect(dayBefore).toMatchObject({ to: ATTENDEE.email, subject: 'Reminder: Remind with Rhea Host in 1 day', replyTo: RHEA_EMAIL });
    expect(dayBefore!.text).toBe(
      [
        'Hello Kenji Guest,',
        '',
        'Remind with Rhea Host starts in 1 day.',
        '',
        'When: Tuesday 10 March 2026, 18:00–18:30 (GMT+9)',
        `Join at https://meet.test/${uid}`,
        '',
        `To reschedule or cancel: https://book.test/m/${uid}/2026-03-10T09:30:00.000Z`,
      ].join('\n'),
    );
    expect(dayBefore!.calendar).toBeUndefined();
    // Sent once: a second pass at the same moment finds nothing.
    expect(await dispatchAt('2026-03-09T09:00:00.000Z')).toEqual([]);
    // The host's reminder carries no manage link: it is the attendee's.
    const hour = await dispatchAt('2026-03-10T08:00:30.000Z', { manageLinks: links });
    expect(hour.map((m) => [m.to, m.subject, m.text.split('\n')[4]]).sort()).toEqual([
      [ATTENDEE.email, 'Reminder: Remind with Rhea Host in 1 hour', 'When: Tuesday 10 March 2026, 18:00–18:30 (GMT+9)'],
      [RHEA_EMAIL, 'Reminder: Remind with Kenji Guest in 1 hour', 'When: Tuesday 10 March 2026, 10:00–10:30 (CET)'],
    ]);
    expect(hour.map((m) => [m.to, m.text.includes('To reschedule or cancel')]).sort()).toEqual([
      [ATTENDEE.email, true],
      [RHEA_EMAIL, false],
    ]);
    expect(await dispatchAt('2026-03-10T08:50:00.000Z')).toEqual([]); // the webhook rule's: an event, no mail
    const followUp = await dispatchAt('2026-03-10T10:00:00.000Z', { manageLinks: links });
    expect(followUp.map((m) => [m.subject, m.text])).toEqual([
      [
        'Following up: Remind with Rhea Host',
        [
          'Hello Kenji Guest,',
          '',
          'Thank you for Remind with Rhea Host.',
          '',
          'When: Tuesday 10 March 2026, 18:00–18:30 (GMT+9)',
          '',
          'How did it go? Reply to this mail.',
        ].join('\n'),
      ],
    ]);
    expect((await reminderRowsOf(store)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
  });

  it('records a webhook rule as one booking.reminder event, naming whom it reminds', async () => {
    const uid = await calls.book(START);
    await dispatchAt('2026-03-10T08:00:00.000Z');
    clock.set('2026-03-10T08:50:00.000Z');
    expect((await dispatchDue(store, clock)).report).toEqual({ sent: 1, suppressed: 0, failed: 0, deferred: 0 });
    await dispatchAt('2026-03-10T08:50:05.000Z');
    const events = (await outboxOf(store)).filter((e) => e.event_type === 'booking.reminder');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subject_uid: uid,
      payload: {
        uid,
        start_at: START,
        reminder: {
          to: 'host',
          recipient: { email: RHEA_EMAIL, name: 'Rhea Host', timezone: 'Europe/Berlin' },
          minutes: 10,
          relative_to: 'start',
          text: null,
          due_at: '2026-03-10T08:50:00.000Z',
        },
      },
    });
  });

  it('moves them with a reschedule, keeps the one already sent, and drops the rest on cancel', async () => {
    const uid = await calls.book(START);
    await dispatchAt('2026-03-09T09:00:00.000Z');
    clock.set('2026-03-09T12:00:00.000Z');
    await calls.move(uid, '2026-03-11T09:00:00.000Z');
    const moved = await reminderRowsOf(store);
    expect(moved.map((r) => [r.due_at, r.status, r.minutes])).toEqual([
      ['2026-03-09T09:00:00.000Z', 'sent', 1440],
      ['2026-03-10T09:00:00.000Z', 'pending', 1440],
      ['2026-03-11T08:00:00.000Z', 'pending', 60],
      ['2026-03-11T08:00:00.000Z', 'pending', 60],
      ['2026-03-11T08:50:00.000Z', 'pending', 10],
      ['2026-03-11T10:00:00.000Z', 'pending', 30],
    ]);
    // Nothing goes at the old moments.
    expect(await dispatchAt('2026-03-10T08:00:00.000Z')).toEqual([]);
    await calls.cancel(uid);
    expect((await reminderRowsOf(store)).map((r) => r.status)).toEqual(['sent']);
    expect(await dispatchAt('2026-03-12T00:00:00.000Z')).toEqual([]);
  });

  it('owes nothing whose moment has passed when it is booked', async () => {
    clock.set('2026-03-10T08:30:00.000Z');
    await calls.book(START);
    expect((await reminderRowsOf(store)).map((r) => r.minutes)).toEqual([10, 30]);
  });

  it(`sends one late only within ${REMINDER_GRACE_MS / 60_000} minutes, and never once the meeting began`, async () => {
    await calls.book(START);
    // The dispatcher was down from before the day-before reminder until just past its grace.
    expect(await dispatchAt('2026-03-09T09:15:00.001Z')).toEqual([]);
    // Back just within the hour-before ones' grace: both go, late.
    expect(await dispatchAt('2026-03-10T08:14:59.999Z')).toHaveLength(2);
    // The meeting started: the webhook reminder due at 08:50 is dropped at 09:00 though within its grace.
    await dispatchAt('2026-03-10T09:00:00.000Z');
    const statuses = (await reminderRowsOf(store)).map((r) => [r.minutes, r.status]);
    expect(statuses).toEqual([
      [1440, 'expired'],
      [60, 'sent'],
      [60, 'sent'],
      [10, 'expired'],
      [30, 'pending'],
    ]);
    expect((await outboxOf(store)).filter((e) => e.event_type === 'booking.reminder')).toEqual([]);
  });

  it('reminds nobody of a request until the host confirms it', async () => {
    await calls.book(START, ET_REMIND.ask);
    expect(await rows()).toEqual([]);
  });

  it('reminds no attendee of a type whose attendee mail is off, but still its host', async () => {
    await calls.book(START, ET_REMIND.quiet);
    expect((await rows()).map((r) => r[0])).toEqual([RHEA_EMAIL, RHEA_EMAIL]);
  });

  it('reminds each host of a collective booking in their own zone', async () => {
    await calls.book(START, ET_REMIND.together);
    const sent = await dispatchAt('2026-03-10T08:00:00.000Z');
    expect(sent.map((m) => [m.to, m.text.split('\n')[4]])).toEqual([
      [RHEA_EMAIL, 'When: Tuesday 10 March 2026, 10:00–10:30 (CET)'],
      ['sam@host.test', 'When: Tuesday 10 March 2026, 05:00–05:30 (EDT)'],
    ]);
  });

  it('drops at send time what is no longer owed: a rule removed, a host who switched reminders off', async () => {
    await calls.book(START);
    await loadReminderWorkspace({ store, clock }, { rules: [{ minutes: 60, to: 'both' }] });
    clock.set('2026-03-09T09:00:00.000Z');
    const links: ManageLinkWriter = async () => 'https://book.test/m';
    const { report } = await dispatchDue(store, clock, recordingMailer(), links);
    // The booking's own mails, and the day-before reminder whose rule is gone.
    expect(report).toEqual({ sent: 2, suppressed: 1, failed: 0, deferred: 0 });
    expect((await reminderRowsOf(store))[0]).toMatchObject({ minutes: 1440, status: 'suppressed' });
    await loadReminderWorkspace({ store, clock }, { rules: [{ minutes: 60, to: 'both' }], rheaReminders: false });
    expect(await dispatchAt('2026-03-10T10:00:00.000Z')).toEqual([]);
    expect((await reminderRowsOf(store)).map((r) => r.status)).toEqual([
      'suppressed',
      'suppressed',
      'suppressed',
      'suppressed',
      'suppressed',
    ]);
    // And a booking made while it is off queues none.
    await calls.book('2026-03-12T09:00:00.000Z');
    expect(await rows()).toHaveLength(5);
  });

  it("gives each occurrence of a series its own, and silences the attendee's once the series says notify_invitee: false", async () => {
    const { outcome } = await createSeries(deps, rhea, {
      host_user_id: RHEA,
      event_type_id: ET_REMIND.remind,
      attendee: { email: ATTENDEE.email, name: ATTENDEE.name },
      frequency: 'weekly',
      weekdays: ['tue'],
      time: '10:00',
      timezone: 'Europe/Berlin',
      starts_on: '2026-03-10',
      count: 2,
    });
    const seriesUid = (outcome as { data: { series: { uid: string } } }).data.series.uid;
    const dues = (await reminderRowsOf(store)).filter((r) => r.recipient === ATTENDEE.email).map((r) => r.due_at);
    expect(dues).toEqual([
      '2026-03-09T09:00:00.000Z',
      '2026-03-10T08:00:00.000Z',
      '2026-03-10T10:00:00.000Z',
      '2026-03-16T09:00:00.000Z',
      '2026-03-17T08:00:00.000Z',
      '2026-03-17T10:00:00.000Z',
    ]);
    expect(await dispatchAt('2026-03-09T09:00:00.000Z')).toHaveLength(1);
    const updated = await updateSeries(deps, rhea, seriesUid, { notify_invitee: false }, { key: 'quiet', ifMatch: '"1"' });
    expect((updated.outcome as { status: number }).status).toBe(200);
    const later = await dispatchAt('2026-03-17T08:00:00.000Z');
    expect(later.map((m) => m.to)).toEqual([RHEA_EMAIL]);
    const attendees = (await reminderRowsOf(store)).filter((r) => r.recipient === ATTENDEE.email);
    expect(attendees.map((r) => r.status)).toEqual(['sent', 'suppressed', 'suppressed', 'suppressed', 'suppressed', 'pending']);
  });

  it('reads the workspace file’s rules and switch back as it wrote them', async () => {
    const file = reminderWorkspace({ rheaReminders: false });
    rhea = await loadReminderWorkspace({ store, clock }, { rheaReminders: false });
    const row = await store.db.selectFrom('users').select('reminders').where('id', '=', RHEA).executeTakeFirstOrThrow();
    expect(row.reminders).toBe(0);
    const types = await store.db.selectFrom('event_types').select(['slug', 'reminders_json']).orderBy('slug').execute();
    expect(Object.fromEntries(types.map((t) => [t.slug, JSON.parse(t.reminders_json)]))).toEqual({
      ask: [
        { minutes: 1440, relative_to: 'start', to: 'attendee', via: 'email', text: null },
        { minutes: 60, relative_to: 'start', to: 'attendee', via: 'email', text: null },
      ],
      quiet: expect.any(Array),
      remind: expect.any(Array),
      together: [{ minutes: 60, relative_to: 'start', to: 'host', via: 'email', text: null }],
    });
    expect(file).toBeDefined();
  });

  it('puts alarms in the invites of a host whose reminders are on, and none once they switch them off', async () => {
    const alarmsOf = async (kind: string) =>
      (await store.db.selectFrom('notifications').select(['recipient', 'payload_json']).where('kind', '=', kind).execute())
        .map((r) => [r.recipient, JSON.parse(r.payload_json).alarms ?? null])
        .sort();
    const uid = await calls.book(START);
    await calls.cancel(uid);
    expect(await alarmsOf('booking_canceled')).toEqual([
      [ATTENDEE.email, [1440, 60]],
      [RHEA_EMAIL, [60]],
    ]);
    await store.db.deleteFrom('notifications').execute();
    await store.db.updateTable('users').set({ reminders: 0 }).where('id', '=', RHEA).execute();
    await calls.cancel(await calls.book('2026-03-12T09:00:00.000Z'));
    expect(await alarmsOf('booking_canceled')).toEqual([
      [ATTENDEE.email, null],
      [RHEA_EMAIL, null],
    ]);
  });

  it('retries, never sends unchecked, a reminder whose booking cannot be read, and one whose event cannot be recorded', async () => {
    await calls.book(START);
    await dispatchAt(REMIND_T0);
    clock.set('2026-03-10T08:00:00.000Z');
    const away = failingReads(store, (table) => table === 'bookings');
    const mailer = recordingMailer();
    const told: string[] = [];
    const onSendFailed = (error: unknown) => told.push((error as Error).message);
    expect(await dispatchNotifications({ store: away, clock, ids: randomIds, mailer, onSendFailed }, { limit: 1000 })).toEqual({
      sent: 0,
      suppressed: 0,
      failed: 0,
      deferred: 1,
    });
    // Nothing went unchecked; the reminder waits for its retry (the pass ends at a failed send), all still pending.
    expect(mailer.delivered).toEqual([]);
    // The operator is told what failed: the database, not something downstream of it.
    expect(told).toEqual(['database lost at SelectQueryNode']);
    expect((await reminderRowsOf(store)).filter((r) => r.status === 'pending')).toHaveLength(5);
    clock.set('2026-03-10T08:50:00.000Z');
    // The event's id cannot be made: its transaction, and the row's mark of sent with it, roll back.
    const noIds = {
      uuid: () => {
        throw new Error('no ids');
      },
    } as unknown as typeof randomIds;
    expect(await dispatchNotifications({ store, clock, ids: noIds, mailer }, { limit: 1000 })).toMatchObject({ deferred: 1 });
    expect((await reminderRowsOf(store)).find((r) => r.minutes === 10)!.status).toBe('pending');
    expect((await outboxOf(store)).filter((e) => e.event_type === 'booking.reminder')).toEqual([]);
    clock.set('2026-03-10T08:51:00.000Z');
    expect((await dispatchDue(store, clock)).report).toMatchObject({ sent: 1 });
    expect((await outboxOf(store)).filter((e) => e.event_type === 'booking.reminder')).toHaveLength(1);
  });

  it('dispatches a pass of due reminders with the report counting them', async () => {
    await calls.book(START);
    clock.set('2026-03-10T08:00:00.000Z');
    const { report } = await dispatchDue(store, clock);
    // Two booking mails (created), the day-before one expired, the two hour-before ones sent.
    expect(report).toEqual({ sent: 4, suppressed: 1, failed: 0, deferred: 0 });
  });
});
