import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { smtpMailer } from '../src/notifications/adapters/smtp-mailer.js';
import { smtpSettings } from '../src/notifications/adapters/smtp-settings.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import type { Mailer } from '../src/notifications/mailer.js';
import { createBookingOperation, listBookingsOperation } from '../src/operations/booking-operations.js';
import { type ExecuteDeps, execute } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { independentPython, type ParsedCalendar, parseIndependently } from './support/independent-ics.js';
import { clearMailWrites, ET_MAIL, HANA, IVY, loadMailWorkspace, MAIL_T0 } from './support/mail-workspace.js';
import { changeSeriesHost, createSeries, endSeries, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import { type Received, type SmtpSink, startSmtpSink } from './support/smtp-sink.js';
import { storeFixtures } from './support/stores.js';

// Issue 30 items 8 and 9: every series action, through a real SMTP server,
// every invite read by an independent parser (Python's icalendar), and the
// attendee's calendar, built by applying the iTIP messages in the order they
// arrived, must equal the series' confirmed occurrences as the API lists
// them. Before: one REQUEST held every occurrence (some clients import only
// the first), and a PATCH that moved the time, or a resume that booked
// replacements, sent nothing, so the attendee's calendar kept the old times.

const FROM = 'Schedule <mail@schedule.test>';
const ATTENDEE = 'bob@guest.test';

/** What the attendee's calendar holds for one UID: the event, or the cancellation that removed it. */
type Entry =
  | { readonly sequence: number; readonly start: string; readonly end: string; readonly organizer: string; readonly location: string }
  | { readonly sequence: number; readonly canceled: true };

/**
 * A calendar client applying iTIP (RFC 5546 §2.1.4-2.1.5): a REQUEST adds or
 * replaces the event of its UID, a CANCEL removes it, and a message older than
 * what the calendar has (lower SEQUENCE) is ignored, so the order mail
 * arrives in does not matter for one UID.
 */
function apply(calendar: Map<string, Entry>, message: ParsedCalendar): void {
  // One calendar object per message: one event (item 8).
  expect(message.events).toHaveLength(1);
  const event = message.events[0]!;
  const had = calendar.get(event.uid);
  if (had !== undefined && had.sequence > event.sequence) return;
  if (message.method === 'REQUEST') {
    expect(event.status).toBe('CONFIRMED');
    const { sequence, start, end, organizer, location } = event;
    calendar.set(event.uid, { sequence, start, end, organizer, location });
  } else {
    expect([message.method, event.status]).toEqual(['CANCEL', 'CANCELLED']);
    calendar.set(event.uid, { sequence: event.sequence, canceled: true });
  }
}

/** The events the calendar shows, by start. */
function shown(calendar: Map<string, Entry>) {
  return [...calendar.entries()]
    .flatMap(([uid, entry]) =>
      'canceled' in entry ? [] : [{ uid, start: entry.start, end: entry.end, organizer: entry.organizer, location: entry.location }],
    )
    .sort((a, b) => a.start.localeCompare(b.start) || a.uid.localeCompare(b.uid));
}

/** The one invite a mail carries, as text: one `text/calendar` part and one `.ics` attachment, the same object. */
function inviteText(mail: Received): string | undefined {
  const parts = mail.raw.match(/^Content-Type: text\/calendar/gim) ?? [];
  const attachments = mail.parsed.attachments.filter((a) => a.contentType === 'application/ics');
  if (parts.length === 0 && attachments.length === 0) return undefined;
  expect([parts.length, attachments.length]).toEqual([1, 1]);
  return attachments[0]!.content.toString('utf8');
}

describe.skipIf(independentPython === undefined).each(storeFixtures())("the attendee's calendar follows a series on $name", (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let sink: SmtpSink;
  let mailer: Mailer;
  let calendar: Map<string, Entry>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    store = await fixture.open();
    clock = manualClock(MAIL_T0);
    deps = testDeps(store, clock);
    hana = await loadMailWorkspace({ store, clock });
    mailer = smtpMailer(smtpSettings(sink.url, FROM));
  });
  beforeEach(async () => {
    clock.set(MAIL_T0);
    await clearMailWrites(store);
    await loadMailWorkspace({ store, clock });
    sink.received.length = 0;
    calendar = new Map();
  });
  afterAll(async () => {
    await sink.close();
    await fixture.cleanup();
  });

  /** The words of the last invite mails delivered, for the tests that read them. */
  let lastInviteTexts: string[] = [];

  /**
   * Sends what is due, then applies every invite the attendee got, in the order it arrived; says what
   * arrived: the subjects of the mails without an invite, those of the invite mails (each once), and
   * how many REQUESTs and CANCELs.
   */
  async function deliver(): Promise<{ subjects: string[]; invites?: string[]; requests: number; cancels: number }> {
    await dispatchNotifications({ store, clock, ids: randomIds, mailer }, { limit: 500 });
    const arrived = sink.received.splice(0);
    for (const mail of arrived) expect(mail.to).toEqual([ATTENDEE]);
    const invites = arrived.flatMap((mail) => {
      const text = inviteText(mail);
      return text === undefined ? [] : [text];
    });
    const parsed = parseIndependently(invites);
    for (const message of parsed) {
      expect(message.events[0]?.attendees).toEqual([`mailto:${ATTENDEE}`]);
      apply(calendar, message);
    }
    const withInvite = arrived.filter((m) => inviteText(m) !== undefined);
    lastInviteTexts = withInvite.map((m) => m.parsed.text ?? '');
    const inviteSubjects = [...new Set(withInvite.map((m) => m.parsed.subject ?? ''))].sort();
    return {
      subjects: arrived.filter((m) => inviteText(m) === undefined).map((m) => m.parsed.subject ?? ''),
      ...(inviteSubjects.length > 0 ? { invites: inviteSubjects } : {}),
      requests: parsed.filter((m) => m.method === 'REQUEST').length,
      cancels: parsed.filter((m) => m.method === 'CANCEL').length,
    };
  }

  /** The series' confirmed occurrences as `GET /v1/bookings?series_id=…&status=confirmed` lists them, as calendar events. */
  async function confirmed(seriesUid: string) {
    const listed = await execute(
      deps,
      listBookingsOperation,
      hana,
      { params: {}, query: { series_id: seriesUid, status: 'confirmed', limit: '100' }, body: undefined },
      'req-list',
    );
    type Listed = { uid: string; start_at: string; end_at: string; host: { email: string }; location: { url: string | null } };
    const bookings = (listed.outcome as { data: Listed[] }).data;
    return bookings
      .map((b) => ({
        uid: `${b.uid}@schedule`,
        start: b.start_at,
        end: b.end_at,
        organizer: `mailto:${b.host.email}`,
        location: b.location.url ?? '',
      }))
      .sort((a, b) => a.start.localeCompare(b.start) || a.uid.localeCompare(b.uid));
  }

  const body = (changes: Record<string, unknown> = {}) => ({
    host_user_id: HANA,
    event_type_id: ET_MAIL.meet,
    attendee: { email: ATTENDEE, name: 'Bob Guest' },
    frequency: 'weekly',
    // Monday and Wednesday 10:00 in Berlin, across the spring change of 29 March.
    weekdays: ['mon', 'wed'],
    time: '10:00',
    timezone: 'Europe/Berlin',
    starts_on: '2026-03-23',
    count: 4,
    ...changes,
  });

  async function created(changes: Record<string, unknown> = {}): Promise<string> {
    const call = await createSeries(deps, hana, body(changes));
    expect(call.outcome.status).toBe(201);
    return (call.outcome as { data: { series: { uid: string } } }).data.series.uid;
  }

  /** A new series whose confirmation and four invites have reached the attendee's calendar. */
  async function delivered(): Promise<string> {
    const uid = await created();
    expect(await deliver()).toEqual({
      subjects: ['Booked: Meet with Hana Host'],
      invites: ['Booked: Meet with Hana Host'],
      requests: 4,
      cancels: 0,
    });
    expect(shown(calendar)).toEqual(await confirmed(uid));
    return uid;
  }

  it('a create puts each occurrence in the calendar; a PATCH of the time moves each', async () => {
    const uid = await delivered();
    expect(shown(calendar).map((e) => e.start)).toEqual([
      '2026-03-23T09:00:00.000Z',
      '2026-03-25T09:00:00.000Z',
      '2026-03-30T08:00:00.000Z',
      '2026-04-01T08:00:00.000Z',
    ]);

    // The time moves: each occurrence is held (canceled) and replaced at 11:00.
    expect((await updateSeries(deps, hana, uid, { time: '11:00' }, { ifMatch: '*' })).outcome.status).toBe(200);
    expect(await deliver()).toEqual({
      subjects: [],
      invites: ['Booked: Meet with Hana Host', 'Canceled: Meet with Hana Host'],
      requests: 4,
      cancels: 4,
    });
    // The held reason speaks to the host; the attendee's cancellation gives none.
    expect(lastInviteTexts.filter((t) => t.includes('Reason:'))).toEqual([]);
    expect(shown(calendar)).toEqual(await confirmed(uid));
    expect(shown(calendar).map((e) => e.start)).toEqual([
      '2026-03-23T10:00:00.000Z',
      '2026-03-25T10:00:00.000Z',
      '2026-03-30T09:00:00.000Z',
      '2026-04-01T09:00:00.000Z',
    ]);
  });

  it('a pause sends nothing; the resume cancels each held occurrence and sends its replacement', async () => {
    const uid = await delivered();
    const beforePause = shown(calendar);

    // A pause sends nothing (api.md): the held dates stay in the attendee's calendar meanwhile.
    expect((await pauseSeries(deps, hana, uid)).outcome.status).toBe(200);
    expect(await deliver()).toEqual({ subjects: [], requests: 0, cancels: 0 });
    expect(shown(calendar)).toEqual(beforePause);
    expect(await confirmed(uid)).toEqual([]);

    expect((await resumeSeries(deps, hana, uid)).outcome.data).toMatchObject({ created: 4, owed: 0 });
    expect(await deliver()).toEqual({
      subjects: [],
      invites: ['Booked: Meet with Hana Host', 'Canceled: Meet with Hana Host'],
      requests: 4,
      cancels: 4,
    });
    expect(shown(calendar)).toEqual(await confirmed(uid));
    expect(shown(calendar)).toHaveLength(4);
    expect(shown(calendar)).not.toEqual(beforePause);
  });

  it('a host change updates each occurrence in place, with the new host as ORGANIZER', async () => {
    const uid = await delivered();
    expect((await changeSeriesHost(deps, hana, uid, { host_user_id: IVY })).outcome.data).toMatchObject({ moved: 4, stopped_by: null });
    expect(await deliver()).toEqual({ subjects: [], invites: ['Changed: Meet with Ivy Host'], requests: 4, cancels: 0 });
    expect(lastInviteTexts.every((t) => t.includes('Meet is now with Ivy Host.'))).toBe(true);
    expect(shown(calendar)).toEqual(await confirmed(uid));
    expect(new Set(shown(calendar).map((e) => e.organizer))).toEqual(new Set(['mailto:ivy@host.test']));
  });

  it('an end of a paused series cancels what the pause held', async () => {
    const uid = await delivered();
    expect((await pauseSeries(deps, hana, uid)).outcome.status).toBe(200);
    expect(await deliver()).toEqual({ subjects: [], requests: 0, cancels: 0 });

    expect((await endSeries(deps, hana, uid)).outcome.status).toBe(200);
    expect(await deliver()).toEqual({ subjects: [], invites: ['Canceled: Meet with Hana Host'], requests: 0, cancels: 4 });
    expect(shown(calendar)).toEqual([]);
    expect(await confirmed(uid)).toEqual([]);
  });

  it('an end of an active series cancels each occurrence, beside the notice listing them', async () => {
    const uid = await created();
    await deliver();
    clock.set('2026-03-24T00:00:00Z');

    expect((await endSeries(deps, hana, uid)).outcome.status).toBe(200);
    expect(await deliver()).toEqual({
      subjects: ['Canceled: Meet with Hana Host'],
      invites: ['Canceled: Meet with Hana Host'],
      requests: 0,
      cancels: 3,
    });
    expect(lastInviteTexts.every((t) => t.includes('Reason: The series was ended.'))).toBe(true);
    // The first occurrence is past and stays: the calendar is what the series still has confirmed.
    expect(shown(calendar)).toEqual(await confirmed(uid));
    expect(shown(calendar).map((e) => e.start)).toEqual(['2026-03-23T09:00:00.000Z']);
  });

  it('a PATCH that moves the time only partly (a date not free) leaves the calendar with what is booked', async () => {
    const uid = await created();
    await deliver();
    // Hana is busy at the new time on 30 March (a booking of her own), so that occurrence stays owed.
    const busy = await execute(
      deps,
      createBookingOperation,
      hana,
      {
        params: {},
        query: {},
        body: { event_type_id: ET_MAIL.meet, start: '2026-03-30T09:00:00Z', attendee: { email: 'carol@guest.test', name: 'Carol' } },
        idempotencyKey: 'busy-30',
      },
      'req-busy',
    );
    expect(busy.outcome.status).toBe(201);
    await dispatchNotifications({ store, clock, ids: randomIds, mailer: { send: async () => undefined } });

    expect((await updateSeries(deps, hana, uid, { time: '11:00' }, { ifMatch: '*' })).outcome.data).toMatchObject({
      resumed: { created: 3, owed: 1 },
    });
    expect(await deliver()).toEqual({
      subjects: [],
      invites: ['Booked: Meet with Hana Host', 'Canceled: Meet with Hana Host'],
      requests: 3,
      cancels: 4,
    });
    expect(shown(calendar)).toEqual(await confirmed(uid));
    expect(shown(calendar)).toHaveLength(3);
  });

  it('a PATCH of the link: each occurrence updated in place with the new link, same UID, next SEQUENCE', async () => {
    const uid = await created({ location_url: 'https://meet.example/old' });
    await deliver();
    expect(new Set(shown(calendar).map((e) => e.location))).toEqual(new Set(['https://meet.example/old']));

    expect((await updateSeries(deps, hana, uid, { location_url: 'https://meet.example/new' }, { ifMatch: '*' })).outcome.status).toBe(200);
    expect(await deliver()).toEqual({ subjects: [], invites: ['Changed: Meet with Hana Host'], requests: 4, cancels: 0 });
    expect(lastInviteTexts.every((t) => t.includes('Meet with Hana Host has a new place to meet.'))).toBe(true);
    expect(shown(calendar)).toEqual(await confirmed(uid));
    expect(new Set(shown(calendar).map((e) => e.location))).toEqual(new Set(['https://meet.example/new']));
    const changed = await store.db.selectFrom('notifications').select('payload_json').where('kind', '=', 'booking_changed').execute();
    expect(changed.map((r) => (JSON.parse(r.payload_json) as { changed?: string }).changed)).toEqual(Array(4).fill('location'));
  });

  it('notify_invitee false: no action sends the attendee anything', async () => {
    const uid = await created({ notify_invitee: false });
    await updateSeries(deps, hana, uid, { time: '11:00' }, { ifMatch: '*' });
    await pauseSeries(deps, hana, uid);
    await resumeSeries(deps, hana, uid);
    await changeSeriesHost(deps, hana, uid, { host_user_id: IVY });
    await endSeries(deps, hana, uid);

    expect(await deliver()).toEqual({ subjects: [], requests: 0, cancels: 0 });
    expect(await store.db.selectFrom('notifications').selectAll().execute()).toEqual([]);
  });

  it('notify_invitee patched to false: what the PATCH itself moves is not sent, nor anything after', async () => {
    const uid = await created();
    await deliver();
    await updateSeries(deps, hana, uid, { time: '11:00', notify_invitee: false }, { ifMatch: '*' });
    await changeSeriesHost(deps, hana, uid, { host_user_id: IVY });

    expect(await deliver()).toEqual({ subjects: [], requests: 0, cancels: 0 });
  });
});
