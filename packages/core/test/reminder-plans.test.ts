import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import type { ClaimedMail } from '../src/notifications/claim-mail.js';
import { aheadText, composeMail } from '../src/notifications/compose-mail.js';
import { planReminders, reminderPlans } from '../src/notifications/send-reminder.js';
import { execute } from '../src/operations/execute.js';
import { operationsByName } from '../src/operations/registry.js';
import type { ReminderMailPayload } from '../src/outbox/record-notification.js';
import { storedReminders } from '../src/reminders/reminder-rules.js';
import {
  changesReminders,
  REMINDER_KIND,
  type RemindedBooking,
  reminderRows,
  reminderSettings,
} from '../src/reminders/schedule-reminders.js';
import type { BookingsTable } from '../src/storage/schema.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { clearMailWrites } from './support/mail-workspace.js';
import {
  ATTENDEE,
  ET_REMIND,
  loadReminderWorkspace,
  REMIND_T0,
  RHEA,
  RHEA_EMAIL,
  reminderCalls,
  SAM,
} from './support/reminder-workspace.js';
import { createSeries } from './support/series-calls.js';
import { storeFixtures } from './support/stores.js';

// What decides a reminder, case by case: what is queued with a booking
// (reminderSettings, reminderRows), and what the dispatcher makes of a row
// when it comes due (planReminders), each switch and each change on its own.

const START = '2026-03-10T09:00:00.000Z';
/** When the one-hour reminders are due. */
const HOUR_BEFORE = Date.parse('2026-03-10T08:00:00.000Z');

describe('which changes of a booking change its reminders', () => {
  it('its status, times, hosts and attendee; nothing else', () => {
    for (const column of ['status', 'start_at', 'end_at', 'host_user_id', 'co_hosts_json', 'attendee_email']) {
      expect(changesReminders({ [column]: 'x' })).toBe(true);
    }
    expect(changesReminders({})).toBe(false);
    expect(changesReminders({ metadata_json: '{}', title: 'x', start_at: undefined })).toBe(false);
  });

  it('reads no rules from a row that has none', () => {
    expect(storedReminders(null)).toEqual([]);
    expect(storedReminders('')).toEqual([]);
    expect(storedReminders('[{"minutes":5}]')).toEqual([{ minutes: 5 }]);
  });
});

describe('a reminder mail', () => {
  it('says how far ahead in days, hours and minutes', () => {
    expect([0, 1, 2, 60, 90, 120, 1440, 1441, 1500, 2881, 43200].map(aheadText)).toEqual([
      'now',
      'in 1 minute',
      'in 2 minutes',
      'in 1 hour',
      'in 1 hour and 30 minutes',
      'in 2 hours',
      'in 1 day',
      'in 1 day and 1 minute',
      'in 1 day and 1 hour',
      'in 2 days and 1 minute',
      'in 30 days',
    ]);
  });

  const payload = (changes: Partial<ReminderMailPayload> = {}): ReminderMailPayload => ({
    role: 'host',
    timezone: 'Europe/Berlin',
    title: 'Remind between Rhea Host and Kenji Guest',
    event_type_name: 'Remind',
    host: { email: RHEA_EMAIL, name: 'Rhea Host' },
    attendee: { email: ATTENDEE.email, name: 'Kenji Guest' },
    guests: [],
    start_at: START,
    end_at: '2026-03-10T09:30:00.000Z',
    sequence: 1,
    status: 'confirmed',
    location: { type: 'phone', url: null, value: '+49 30 1234' },
    reminder: { minutes: 15, relative_to: 'start', text: null },
    ...changes,
  });
  const mail = (p: ReminderMailPayload, manageUrl?: string) =>
    composeMail({
      id: 'm',
      kind: 'booking_reminder',
      recipient: RHEA_EMAIL,
      seriesUid: null,
      bookingUid: 'b',
      createdAt: START,
      payload: p,
      manageUrl,
    });

  it('tells the host where, replies going to the attendee, with no link and no invite', () => {
    const written = mail(payload());
    expect([written.subject, written.replyTo, written.fromName, written.calendar]).toEqual([
      'Reminder: Remind with Kenji Guest in 15 minutes',
      ATTENDEE.email,
      'Kenji Guest',
      undefined,
    ]);
    expect(written.text).toBe(
      [
        'Hello Rhea Host,',
        '',
        'Remind with Kenji Guest starts in 15 minutes.',
        '',
        'When: Tuesday 10 March 2026, 10:00–10:30 (CET)',
        'Where: +49 30 1234',
      ].join('\n'),
    );
    expect(written.html).toContain('Where: +49 30 1234</p>');
  });

  it('writes no place it does not know, and a follow-up neither place nor link', () => {
    expect(mail(payload({ location: { type: 'in_person', url: null, value: null } })).text).not.toContain('Where');
    const followUp = mail(payload({ reminder: { minutes: 0, relative_to: 'end', text: 'Thanks!' } }), 'https://book.test/m');
    expect(followUp.subject).toBe('Following up: Remind with Kenji Guest');
    expect(followUp.text).toBe(
      [
        'Hello Rhea Host,',
        '',
        'Thank you for Remind with Kenji Guest.',
        '',
        'When: Tuesday 10 March 2026, 10:00–10:30 (CET)',
        '',
        'Thanks!',
      ].join('\n'),
    );
  });
});

describe.each(storeFixtures())('reminder decisions on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let rhea: Principal;
  let calls: ReturnType<typeof reminderCalls>;

  beforeAll(async () => {
    store = await fixture.open();
    clock = manualClock(REMIND_T0);
    calls = reminderCalls(testDeps(store, clock), () => rhea);
  });
  beforeEach(async () => {
    clock.set(REMIND_T0);
    await store.db.deleteFrom('booking_hosts').execute();
    await clearMailWrites(store);
    rhea = await loadReminderWorkspace({ store, clock });
  });
  afterAll(() => fixture.cleanup());

  /** The queued rows of a booking's reminders due at `dueMs`, as the dispatcher claims them. */
  const rowsDueAt = async (dueMs: number): Promise<ClaimedMail[]> =>
    (await store.db.selectFrom('notifications').selectAll().where('kind', '=', REMINDER_KIND).execute()).filter(
      (r) => JSON.parse(r.payload_json).due_at === new Date(dueMs).toISOString(),
    );
  /** What the dispatcher would do at `nowMs` with the reminders due at `dueMs`: `[recipient role, plan kind]`. */
  const plansAt = async (dueMs: number, nowMs = dueMs) => {
    const rows = await rowsDueAt(dueMs);
    const plans = await planReminders(store.db, rows, nowMs);
    return rows
      .map((r) => [JSON.parse(r.payload_json).role, plans.get(r.id)!.kind])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  };
  const setType = (changes: Record<string, unknown>) =>
    store.db.updateTable('event_types').set(changes).where('id', '=', ET_REMIND.remind).execute();

  it('plans a mail to each recipient of a booking as it is, and sends it late only within the grace', async () => {
    await calls.book(START);
    expect(await plansAt(HOUR_BEFORE)).toEqual([
      ['attendee', 'mail'],
      ['host', 'mail'],
    ]);
    expect(await plansAt(HOUR_BEFORE, HOUR_BEFORE + 15 * 60_000 + 1)).toEqual([
      ['attendee', 'expired'],
      ['host', 'expired'],
    ]);
  });

  it.each([
    ['minutes', [{ minutes: 61, to: 'both' }]],
    ['relative_to', [{ minutes: 60, to: 'both', relative_to: 'end' }]],
    ['via', [{ minutes: 60, to: 'both', via: 'webhook' }]],
  ])('drops a reminder whose rule changed its %s since it was queued', async (_, rules) => {
    await calls.book(START);
    const stored = rules.map((r) => ({ relative_to: 'start', via: 'email', text: null, ...r }));
    await setType({ reminders_json: JSON.stringify(stored) });
    expect(await plansAt(HOUR_BEFORE)).toEqual([
      ['attendee', 'drop'],
      ['host', 'drop'],
    ]);
  });

  it('tells a rule before the start from a follow-up of the same minutes', async () => {
    const rule = { minutes: 30, to: 'attendee', via: 'email', text: null };
    await setType({
      reminders_json: JSON.stringify([
        { ...rule, relative_to: 'end' },
        { ...rule, relative_to: 'start' },
      ]),
    });
    await calls.book(START);
    expect(await plansAt(Date.parse('2026-03-10T08:30:00.000Z'))).toEqual([['attendee', 'mail']]);
    expect(await plansAt(Date.parse('2026-03-10T10:00:00.000Z'))).toEqual([['attendee', 'mail']]);
  });

  it('keeps the reminder of each recipient the rule still names, with its new text', async () => {
    await calls.book(START);
    await setType({
      reminders_json: JSON.stringify([{ minutes: 60, relative_to: 'start', to: 'host', via: 'email', text: 'New text' }]),
    });
    const rows = await rowsDueAt(HOUR_BEFORE);
    const plans = await planReminders(store.db, rows, HOUR_BEFORE);
    const byRole = Object.fromEntries(rows.map((r) => [JSON.parse(r.payload_json).role, plans.get(r.id)!]));
    expect(byRole.attendee).toEqual({ kind: 'drop' });
    expect(byRole.host).toMatchObject({
      kind: 'mail',
      recipient: RHEA_EMAIL,
      payload: { role: 'host', timezone: 'Europe/Berlin', reminder: { minutes: 60, relative_to: 'start', text: 'New text' } },
    });
  });

  it.each<[string, Partial<Pick<BookingsTable, 'status' | 'start_at' | 'end_at'>>]>([
    ['canceled', { status: 'canceled' }],
    ['moved without its reminders', { start_at: '2026-03-10T09:30:00.000Z', end_at: '2026-03-10T10:00:00.000Z' }],
  ])('drops what a booking %s no longer owes', async (_, change) => {
    const uid = await calls.book(START);
    await store.db.updateTable('bookings').set(change).where('uid', '=', uid).execute();
    expect(await plansAt(HOUR_BEFORE)).toEqual([
      ['attendee', 'drop'],
      ['host', 'drop'],
    ]);
  });

  it('drops a reminder whose booking is gone, or names none', async () => {
    const uid = await calls.book(START);
    const rows = await rowsDueAt(HOUR_BEFORE);
    await store.db.deleteFrom('notifications').where('booking_uid', '=', uid).execute();
    await store.db.deleteFrom('bookings').where('uid', '=', uid).execute();
    const plans = await planReminders(store.db, [...rows, { ...rows[0]!, id: 'no-booking', booking_uid: null }], HOUR_BEFORE);
    expect([...plans.values()].map((p) => p.kind)).toEqual(['drop', 'drop', 'drop']);
    expect(await planReminders(store.db, [], HOUR_BEFORE)).toEqual(new Map());
  });

  it('drops everything of a host who switched reminders off', async () => {
    await calls.book(START);
    await store.db.updateTable('users').set({ reminders: 0 }).where('id', '=', RHEA).execute();
    expect(await plansAt(HOUR_BEFORE)).toEqual([
      ['attendee', 'drop'],
      ['host', 'drop'],
    ]);
  });

  it.each([
    [
      'the type',
      async (s: Store) => s.db.updateTable('event_types').set({ attendee_mail: 0 }).where('id', '=', ET_REMIND.remind).execute(),
    ],
    ['the workspace', async (s: Store) => s.db.updateTable('organization').set({ attendee_mail: 0 }).execute()],
  ])('drops the attendee’s, not the host’s, once %s turns attendee mail off', async (_, turnOff) => {
    await calls.book(START);
    await turnOff(store);
    expect(await plansAt(HOUR_BEFORE)).toEqual([
      ['attendee', 'drop'],
      ['host', 'mail'],
    ]);
  });

  it('drops the attendee’s of a booking that names no attendee', async () => {
    const uid = await calls.book(START);
    await store.db.updateTable('bookings').set({ attendees_json: '[]' }).where('uid', '=', uid).execute();
    expect(await plansAt(HOUR_BEFORE)).toEqual([
      ['attendee', 'drop'],
      ['host', 'mail'],
    ]);
  });

  it("reminds a collective booking's other host as they are now, and drops it once they no longer host it", async () => {
    const uid = await calls.book(START, ET_REMIND.together);
    await store.db.updateTable('users').set({ email: 'sam@new.test', timezone: 'Asia/Tokyo' }).where('id', '=', SAM).execute();
    const rows = await rowsDueAt(HOUR_BEFORE);
    const sams = rows.find((r) => JSON.parse(r.payload_json).user_id === SAM)!;
    const plan = (await planReminders(store.db, [sams], HOUR_BEFORE)).get(sams.id)!;
    expect(plan).toMatchObject({ kind: 'mail', recipient: 'sam@new.test', payload: { role: 'host', timezone: 'Asia/Tokyo' } });
    await store.db.updateTable('bookings').set({ co_hosts_json: '[]' }).where('uid', '=', uid).execute();
    expect((await planReminders(store.db, [sams], HOUR_BEFORE)).get(sams.id)).toEqual({ kind: 'drop' });
  });

  it("drops another host's reminder once that host switches their own reminders off", async () => {
    await calls.book(START, ET_REMIND.together);
    await store.db.updateTable('users').set({ reminders: 0 }).where('id', '=', SAM).execute();
    const rows = await rowsDueAt(HOUR_BEFORE);
    const plans = await planReminders(store.db, rows, HOUR_BEFORE);
    expect(rows.map((r) => [JSON.parse(r.payload_json).user_id, plans.get(r.id)!.kind]).sort()).toEqual([
      [RHEA, 'mail'],
      [SAM, 'drop'],
    ]);
  });

  it('queues nothing for a team booking whose host switched reminders off', async () => {
    await store.db.updateTable('users').set({ reminders: 0 }).where('id', '=', RHEA).execute();
    await calls.book(START, ET_REMIND.together);
    expect(await rowsDueAt(HOUR_BEFORE)).toEqual([]);
  });

  it('leaves the reminders of a change that moves nothing alone: one due and not yet sent still goes', async () => {
    const uid = await calls.book(START);
    clock.set('2026-03-09T09:00:05.000Z');
    const deps = testDeps(store, clock);
    const { outcome } = await execute(
      deps,
      operationsByName.update_booking,
      rhea,
      { params: { uid }, query: {}, body: { metadata: { crm: 'A-1' } }, idempotencyKey: 'patch-1', ifMatch: '"1"' },
      'req-patch',
    );
    expect((outcome as { status: number }).status).toBe(200);
    expect(await plansAt(Date.parse('2026-03-09T09:00:00.000Z'), clock.now())).toEqual([['attendee', 'mail']]);
  });

  it('answers the error that kept the bookings from being read, and reads nothing for a batch without reminders', async () => {
    const throwing = (thrown: unknown) =>
      ({
        db: {
          selectFrom: () => {
            throw thrown;
          },
        },
      }) as unknown as Store;
    const away = throwing(new Error('database away'));
    const reminder = { id: 'r', kind: REMINDER_KIND, booking_uid: 'b', payload_json: '{"role":"attendee"}' } as ClaimedMail;
    const failed = await reminderPlans({ store: away, clock }, [reminder]);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toBe('database away');
    // Something thrown that is not an Error is answered as one.
    const plain = await reminderPlans({ store: throwing('plain'), clock }, [reminder]);
    expect([plain instanceof Error, (plain as Error).message]).toEqual([true, 'plain']);
    const other = { ...reminder, kind: 'booking_created' };
    expect(await reminderPlans({ store: away, clock }, [other])).toEqual(new Map());
  });

  describe('what is queued with a booking', () => {
    const booking = (changes: Partial<RemindedBooking> = {}): RemindedBooking => ({
      uid: '76100000-0000-4000-8000-000000000001',
      status: 'confirmed',
      start_at: START,
      end_at: '2026-03-10T09:30:00.000Z',
      event_type_id: ET_REMIND.remind,
      host_user_id: RHEA,
      attendee_email: ATTENDEE.email,
      co_hosts_json: '[]',
      series_uid: null,
      ...changes,
    });

    it('reads the rules and the switches: the host’s, the type’s and the workspace’s attendee mail', async () => {
      expect(await reminderSettings(store.db, booking())).toEqual({
        rules: expect.any(Array),
        hostOn: true,
        attendeeSilenced: false,
        hostEmail: RHEA_EMAIL,
      });
      await store.db.updateTable('users').set({ reminders: 0 }).where('id', '=', RHEA).execute();
      expect((await reminderSettings(store.db, booking())).hostOn).toBe(false);
      await store.db.updateTable('organization').set({ attendee_mail: 0 }).execute();
      expect((await reminderSettings(store.db, booking())).attendeeSilenced).toBe(true);
      await store.db.updateTable('organization').set({ attendee_mail: 1 }).execute();
      expect((await reminderSettings(store.db, booking({ event_type_id: ET_REMIND.quiet }))).attendeeSilenced).toBe(true);
    });

    it("silences the attendee of a series that said notify_invitee: false, and no one else's", async () => {
      const { outcome } = await createSeries(testDeps(store, clock), rhea, {
        host_user_id: RHEA,
        event_type_id: ET_REMIND.remind,
        attendee: { email: ATTENDEE.email, name: ATTENDEE.name },
        frequency: 'weekly',
        weekdays: ['tue'],
        time: '10:00',
        timezone: 'Europe/Berlin',
        starts_on: '2026-03-10',
        count: 1,
      });
      const seriesUid = (outcome as { data: { series: { uid: string } } }).data.series.uid;
      expect((await reminderSettings(store.db, booking({ series_uid: seriesUid }))).attendeeSilenced).toBe(false);
      await store.db.updateTable('series').set({ notify_invitee: 0 }).where('uid', '=', seriesUid).execute();
      expect((await reminderSettings(store.db, booking({ series_uid: seriesUid }))).attendeeSilenced).toBe(true);
      expect((await reminderSettings(store.db, booking({ series_uid: null }))).attendeeSilenced).toBe(false);
    });

    it('answers nothing owed for a type that is not there', async () => {
      expect(await reminderSettings(store.db, booking({ event_type_id: '76000000-0000-4000-8000-0000000000ff' }))).toEqual({
        rules: [],
        hostOn: false,
        attendeeSilenced: true,
        hostEmail: '',
      });
    });

    it('writes a row per rule and recipient, each host of several, none with the switch off or no rules', async () => {
      const settings = await reminderSettings(store.db, booking());
      const deps = { clock, ids: randomIds };
      const withSam = booking({ co_hosts_json: JSON.stringify([{ user_id: SAM, username: 'sam', email: 'sam@host.test' }]) });
      const rows = reminderRows(deps, withSam, settings);
      expect(rows.map((r) => [r.recipient, r.next_attempt_at, JSON.parse(r.payload_json).user_id ?? null])).toEqual([
        [ATTENDEE.email, '2026-03-09T09:00:00.000Z', null],
        [ATTENDEE.email, '2026-03-10T08:00:00.000Z', null],
        [RHEA_EMAIL, '2026-03-10T08:00:00.000Z', RHEA],
        ['sam@host.test', '2026-03-10T08:00:00.000Z', SAM],
        [ATTENDEE.email, '2026-03-10T10:00:00.000Z', null],
        [RHEA_EMAIL, '2026-03-10T08:50:00.000Z', RHEA],
        ['sam@host.test', '2026-03-10T08:50:00.000Z', SAM],
      ]);
      expect(rows.every((r) => r.kind === REMINDER_KIND && r.status === 'pending' && r.booking_uid === withSam.uid)).toBe(true);
      expect(reminderRows(deps, booking(), { ...settings, hostOn: false })).toEqual([]);
      expect(reminderRows(deps, booking(), { ...settings, rules: [] })).toEqual([]);
      expect(reminderRows(deps, booking({ status: 'pending' }), settings)).toEqual([]);
      expect(reminderRows(deps, booking(), { ...settings, attendeeSilenced: true }).map((r) => r.recipient)).toEqual([
        RHEA_EMAIL,
        RHEA_EMAIL,
      ]);
    });
  });
});
