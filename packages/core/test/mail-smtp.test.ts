import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { type SmtpTimeouts, smtpMailer } from '../src/notifications/adapters/smtp-mailer.js';
import { smtpSettings } from '../src/notifications/adapters/smtp-settings.js';
import { type DispatchReport, dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import type { Mailer } from '../src/notifications/mailer.js';
import type { ExecuteDeps } from '../src/operations/execute.js';
import type { Store } from '../src/storage/store.js';
import { cancelBooking, createBooking, rescheduleBooking } from './support/booking-calls.js';
import { testDeps } from './support/deps.js';
import {
  clearMailWrites,
  ET_MAIL,
  HOST_EMAIL,
  loadMailWorkspace,
  MAIL_T0,
  mailRowsOf,
  mailSeriesBody as seriesBody,
} from './support/mail-workspace.js';
import { createSeries, endSeries } from './support/series-calls.js';
import { type Received, type SmtpSink, startSilentServer, startSmtpSink } from './support/smtp-sink.js';
import { storeFixtures } from './support/stores.js';

// Issue 16, "Email": mail through a real SMTP server running in the test,
// parsed back with mailparser, and each invite parsed with ical.js.

/** Short bounds, so that a server that never answers costs a test a fraction of a second. */
const SHORT: SmtpTimeouts = { connectionMs: 1000, greetingMs: 300, socketMs: 300, sendMs: 3000 };
const FROM = 'Schedule <mail@schedule.test>';
const NOTHING: DispatchReport = { sent: 0, suppressed: 0, failed: 0, deferred: 0 };
const ATTENDEE = { email: 'bob@guest.test', name: 'Bob Guest', timezone: 'America/New_York' };

/** The invite of a mail: its .ics attachment, read by ical.js. */
function inviteOf(mail: ParsedMail) {
  const ics = mail.attachments.filter((a) => a.contentType === 'application/ics');
  expect(ics).toHaveLength(1);
  const text = ics[0]!.content.toString('utf8');
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((e) => ({
    uid: e.getFirstPropertyValue('uid'),
    sequence: e.getFirstPropertyValue('sequence'),
    start: (e.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    end: (e.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString(),
    status: e.getFirstPropertyValue('status'),
    summary: e.getFirstPropertyValue('summary'),
    organizer: e.getFirstPropertyValue('organizer'),
    attendees: e.getAllProperties('attendee').map((p) => p.getFirstValue()),
  }));
  return { method: calendar.getFirstPropertyValue('method'), events, filename: ics[0]!.filename, text };
}

/** The mail each recipient got, by address. */
function byRecipient(received: readonly Received[]): Record<string, ParsedMail> {
  return Object.fromEntries(received.map((r) => [r.to.join(','), r.parsed]));
}

describe.each(storeFixtures())('mail through SMTP on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let deps: ExecuteDeps;
  let hana: Principal;
  let sink: SmtpSink;
  let mailer: Mailer;

  beforeAll(async () => {
    sink = await startSmtpSink();
    store = await fixture.open();
    clock = manualClock(MAIL_T0);
    deps = testDeps(store, clock);
    hana = await loadMailWorkspace({ store, clock });
    mailer = smtpMailer(smtpSettings(sink.url, FROM), SHORT);
  });
  beforeEach(async () => {
    clock.set(MAIL_T0);
    await clearMailWrites(store);
    await loadMailWorkspace({ store, clock });
    sink.received.length = 0;
    sink.mode = 'accept';
  });
  afterAll(async () => {
    await sink.close();
    await fixture.cleanup();
  });

  const dispatch = (using: Mailer = mailer) => dispatchNotifications({ store, clock, ids: randomIds, mailer: using });
  const book = async (start: string, eventTypeId: string = ET_MAIL.meet, extra: Record<string, unknown> = {}) => {
    const { outcome } = await createBooking(
      deps,
      hana,
      { event_type_id: eventTypeId, start, attendee: ATTENDEE, ...extra },
      `create-${start}`,
    );
    expect(outcome.status).toBe(201);
    return (outcome as { data: { uid: string } }).data.uid;
  };

  it('a booking across the spring change: host and attendee each get a confirmation, its invite REQUEST at the exact instants', async () => {
    // 01:30 CET, an hour long: it ends at 03:30 CEST, the clocks having jumped an hour at 02:00.
    const uid = await book('2026-03-29T00:30:00Z', ET_MAIL.meet, { guests: ['gail@guest.test'] });

    expect(await dispatch()).toEqual({ ...NOTHING, sent: 2 });
    const mail = byRecipient(sink.received);
    expect(Object.keys(mail).sort()).toEqual(['bob@guest.test', HOST_EMAIL]);
    expect(sink.received.map((r) => r.from)).toEqual(['mail@schedule.test', 'mail@schedule.test']);

    const toBob = mail['bob@guest.test']!;
    expect(toBob.subject).toBe('Booked: Meet with Hana Host');
    // Shown as from the host, the invite's ORGANIZER, while it leaves from the service's own address.
    expect(toBob.from?.value).toEqual([{ address: 'mail@schedule.test', name: 'Hana Host via Schedule' }]);
    expect(toBob.replyTo?.value).toEqual([{ address: HOST_EMAIL, name: '' }]);
    // The attendee reads the time in their own zone.
    expect(toBob.text).toBe(
      [
        'Hello Bob Guest,',
        '',
        'Meet with Hana Host is booked.',
        '',
        'When: Saturday 28 March 2026, 20:30–21:30 (EDT)',
        `Join at https://meet.test/${uid}`,
        'Guests: gail@guest.test',
        '',
        'Open the attached invitation to add it to your calendar.',
      ].join('\n'),
    );
    expect(toBob.html).toContain(`<a href="https://meet.test/${uid}">https://meet.test/${uid}</a>`);

    const toHana = mail[HOST_EMAIL]!;
    expect(toHana.subject).toBe('New booking: Meet with Bob Guest');
    expect(toHana.replyTo?.value).toEqual([{ address: 'bob@guest.test', name: '' }]);
    expect(toHana.from?.value).toEqual([{ address: 'mail@schedule.test', name: 'Bob Guest via Schedule' }]);
    expect(toHana.text).toBe(
      [
        'Hello Hana Host,',
        '',
        'Bob Guest (bob@guest.test) booked Meet with you.',
        '',
        'When: Sunday 29 March 2026, 01:30 (CET) to Sunday 29 March 2026, 03:30 (CEST)',
        `Join at https://meet.test/${uid}`,
        'Guests: gail@guest.test',
        '',
        'Open the attached invitation to add it to your calendar.',
      ].join('\n'),
    );

    for (const parsed of [toBob, toHana]) {
      expect(inviteOf(parsed)).toMatchObject({
        method: 'REQUEST',
        filename: 'invite.ics',
        events: [
          {
            uid: `${uid}@schedule`,
            sequence: 1,
            start: '2026-03-29T00:30:00.000Z',
            end: '2026-03-29T01:30:00.000Z',
            status: 'CONFIRMED',
            summary: 'Meet between Hana Host and Bob Guest',
            organizer: `mailto:${HOST_EMAIL}`,
            attendees: ['mailto:bob@guest.test', 'mailto:gail@guest.test'],
          },
        ],
      });
      expect(inviteOf(parsed).text).toContain('\r\nDTSTART:20260329T003000Z\r\nDTEND:20260329T013000Z\r\n');
    }

    // The same invite as the calendar alternative, with the method Outlook and Gmail read.
    const raw = sink.received.map((r) => r.raw).join('\n');
    expect(raw.match(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/g)).toHaveLength(2);

    // Every sent mail recorded: whom, what, which booking, when, and the Message-ID it left with.
    const rows = await mailRowsOf(store);
    expect(
      rows
        .map(({ kind, recipient, booking_uid, series_uid, status, attempts, sent_at }) => ({
          kind,
          recipient,
          booking_uid,
          series_uid,
          status,
          attempts,
          sent_at,
        }))
        .sort((a, b) => a.recipient.localeCompare(b.recipient)),
    ).toEqual([
      {
        kind: 'booking_created',
        recipient: 'bob@guest.test',
        booking_uid: uid,
        series_uid: null,
        status: 'sent',
        attempts: 1,
        sent_at: MAIL_T0,
      },
      { kind: 'booking_created', recipient: HOST_EMAIL, booking_uid: uid, series_uid: null, status: 'sent', attempts: 1, sent_at: MAIL_T0 },
    ]);
    for (const row of rows) {
      expect(row.payload.message_id).toBe(`<${row.id}@schedule.test>`);
      expect(byRecipient(sink.received)[row.recipient]!.messageId).toBe(`<${row.id}@schedule.test>`);
    }
  });

  it('a move across the autumn change keeps the UID and bumps SEQUENCE; a cancel sends CANCEL with the next one', async () => {
    const uid = await book('2026-03-25T10:00:00Z');
    expect(await dispatch()).toEqual({ ...NOTHING, sent: 2 });
    sink.received.length = 0;

    // 02:30 CEST, an hour long: it ends at 02:30 CET, the same wall-clock time an hour later.
    const moved = await rescheduleBooking(deps, hana, uid, { start: '2026-10-25T00:30:00Z', reason: 'Clash' }, 'move-autumn');
    expect(moved.outcome.status).toBe(200);
    expect(await dispatch()).toEqual({ ...NOTHING, sent: 2 });
    const movedMail = byRecipient(sink.received);
    expect(movedMail[HOST_EMAIL]!.subject).toBe('Moved: Meet with Bob Guest');
    expect(movedMail['bob@guest.test']!.subject).toBe('Moved: Meet with Hana Host');
    expect(movedMail[HOST_EMAIL]!.text).toBe(
      [
        'Hello Hana Host,',
        '',
        'Meet with Bob Guest has moved.',
        '',
        'When: Sunday 25 October 2026, 02:30 (CEST) to Sunday 25 October 2026, 02:30 (CET)',
        'Was: Wednesday 25 March 2026, 11:00–12:00 (CET)',
        `Join at https://meet.test/${uid}`,
        'Reason: Clash',
        '',
        'Open the attached invitation to add it to your calendar.',
      ].join('\n'),
    );
    for (const parsed of Object.values(movedMail)) {
      expect(inviteOf(parsed)).toMatchObject({
        method: 'REQUEST',
        events: [
          { uid: `${uid}@schedule`, sequence: 2, start: '2026-10-25T00:30:00.000Z', end: '2026-10-25T01:30:00.000Z', status: 'CONFIRMED' },
        ],
      });
    }
    sink.received.length = 0;

    clock.set('2026-04-01T00:00:00Z');
    expect((await cancelBooking(deps, hana, uid, { reason: 'No longer needed' }, 'cancel-autumn')).outcome.status).toBe(200);
    expect(await dispatch()).toEqual({ ...NOTHING, sent: 2 });
    const canceledMail = byRecipient(sink.received);
    expect(canceledMail['bob@guest.test']!.subject).toBe('Canceled: Meet with Hana Host');
    expect(canceledMail['bob@guest.test']!.text).toBe(
      [
        'Hello Bob Guest,',
        '',
        'Meet with Hana Host is canceled.',
        '',
        'When: Saturday 24 October 2026, 20:30–21:30 (EDT)',
        'Reason: No longer needed',
        '',
        'Open the attached cancellation to remove it from your calendar.',
      ].join('\n'),
    );
    for (const parsed of Object.values(canceledMail)) {
      const invite = inviteOf(parsed);
      expect(invite).toMatchObject({
        method: 'CANCEL',
        filename: 'cancel.ics',
        events: [
          { uid: `${uid}@schedule`, sequence: 3, start: '2026-10-25T00:30:00.000Z', end: '2026-10-25T01:30:00.000Z', status: 'CANCELLED' },
        ],
      });
    }
    expect(
      sink.received
        .map((r) => r.raw)
        .join('\n')
        .match(/Content-Type: text\/calendar; charset=utf-8; method=CANCEL/g),
    ).toHaveLength(2);
    expect((await mailRowsOf(store)).map((r) => `${r.kind} ${r.recipient} ${r.status}`).sort()).toEqual([
      'booking_canceled bob@guest.test sent',
      `booking_canceled ${HOST_EMAIL} sent`,
      'booking_created bob@guest.test sent',
      `booking_created ${HOST_EMAIL} sent`,
      'booking_rescheduled bob@guest.test sent',
      `booking_rescheduled ${HOST_EMAIL} sent`,
    ]);
  });

  it('attendee mail off for the event type: only the host is told, of a create, a move and a cancel', async () => {
    const uid = await book('2026-03-25T10:00:00Z', ET_MAIL.quiet);
    await rescheduleBooking(deps, hana, uid, { start: '2026-03-26T10:00:00Z' }, 'move-quiet');
    await cancelBooking(deps, hana, uid, {}, 'cancel-quiet');

    expect(await dispatch()).toEqual({ ...NOTHING, sent: 3 });
    // Queued at one instant, so sent in no defined order: read in the order of their SEQUENCE.
    const sent = sink.received
      .map((r) => ({ to: r.to, subject: r.parsed.subject, invite: inviteOf(r.parsed) }))
      .sort((a, b) => Number(a.invite.events[0]!.sequence) - Number(b.invite.events[0]!.sequence));
    expect(sent.map(({ to, subject, invite }) => [to, subject, invite.method, invite.events[0]!.sequence])).toEqual([
      [[HOST_EMAIL], 'New booking: Quiet with Bob Guest', 'REQUEST', 1],
      [[HOST_EMAIL], 'Moved: Quiet with Bob Guest', 'REQUEST', 2],
      [[HOST_EMAIL], 'Canceled: Quiet with Bob Guest', 'CANCEL', 3],
    ]);
  });

  it('attendee mail off for the workspace: the host is told of a booking, the attendee of nothing, not even a series', async () => {
    await loadMailWorkspace({ store, clock }, { attendeeMail: false });
    await book('2026-03-25T10:00:00Z');
    const series = await createSeries(deps, hana, seriesBody());
    expect(series.outcome.status).toBe(201);

    expect(await dispatch()).toEqual({ ...NOTHING, sent: 1 });
    expect(sink.received.map((r) => [r.to, r.parsed.subject])).toEqual([[[HOST_EMAIL], 'New booking: Meet with Bob Guest']]);
    expect((await mailRowsOf(store)).map((r) => r.kind)).toEqual(['booking_created']);
  });

  // Issue 30 item 8: the confirmation was one REQUEST holding one VEVENT per occurrence, and some clients import only the first.
  it('a series confirmation lists the dates; each occurrence comes in a mail of its own, one calendar object each, across the spring change; its end cancels each', async () => {
    const created = await createSeries(deps, hana, seriesBody());
    expect(created.outcome.status).toBe(201);
    const occurrences = (created.outcome as { data: { occurrences: { uid: string }[] } }).data.occurrences;

    expect(await dispatch()).toEqual({ ...NOTHING, sent: 4 });
    expect(sink.received.every((r) => r.to.join() === 'bob@guest.test')).toBe(true);
    const confirmation = sink.received.find((r) => r.parsed.attachments.length === 0)!;
    expect(confirmation.parsed.subject).toBe('Booked: Meet with Hana Host');
    // Monday 10:00 in Berlin: 09:00 UTC before the change, 08:00 UTC after.
    const starts = ['2026-03-23T09:00:00.000Z', '2026-03-30T08:00:00.000Z', '2026-04-06T08:00:00.000Z'];
    const invites = sink.received.filter((r) => r !== confirmation).map((r) => inviteOf(r.parsed));
    expect(invites.every((i) => i.method === 'REQUEST' && i.events.length === 1)).toBe(true);
    expect(invites.map((i) => i.events[0]).sort((a, b) => a!.start.localeCompare(b!.start))).toMatchObject(
      starts.map((start, i) => ({
        uid: `${occurrences[i]!.uid}@schedule`,
        sequence: 1,
        start,
        end: new Date(Date.parse(start) + 3_600_000).toISOString(),
        status: 'CONFIRMED',
        summary: 'Meet between Hana Host and Bob Guest',
        organizer: `mailto:${HOST_EMAIL}`,
        attendees: ['mailto:bob@guest.test'],
      })),
    );
    sink.received.length = 0;

    clock.set('2026-03-24T00:00:00Z');
    const seriesUid = (created.outcome as { data: { series: { uid: string } } }).data.series.uid;
    expect((await endSeries(deps, hana, seriesUid)).outcome.status).toBe(200);
    expect(await dispatch()).toEqual({ ...NOTHING, sent: 3 });
    expect(sink.received.filter((r) => r.parsed.attachments.length === 0).map((r) => r.parsed.subject)).toEqual([
      'Canceled: Meet with Hana Host',
    ]);
    // The first occurrence is past: the end canceled the other two, each now at version 2, each in its own CANCEL.
    const cancels = sink.received.filter((r) => r.parsed.attachments.length > 0).map((r) => inviteOf(r.parsed));
    expect(cancels.every((c) => c.method === 'CANCEL' && c.events.length === 1)).toBe(true);
    expect(cancels.map((c) => c.events[0]).sort((a, b) => a!.start.localeCompare(b!.start))).toMatchObject(
      [1, 2].map((i) => ({ uid: `${occurrences[i]!.uid}@schedule`, sequence: 2, start: starts[i], status: 'CANCELLED' })),
    );
  });

  it('a hostile name cannot add a header: quoted and encoded in From, its line breaks gone', async () => {
    const hostile = 'Eve "the host", <eve@evil.test>\r\nBcc: victim@evil.test\r\nSubject: owned\nÄrger\r\n';
    await mailer.send({
      id: 'hostile-1',
      to: 'bob@guest.test',
      fromName: hostile,
      replyTo: HOST_EMAIL,
      subject: 'Booked: Meet with Eve',
      text: 'x',
      html: '<p>x</p>',
      kind: 'booking_created',
      seriesUid: null,
      bookingUid: null,
    });
    const [got] = sink.received;
    expect(got!.to).toEqual(['bob@guest.test']);
    expect(got!.parsed.from?.value).toEqual([
      { address: 'mail@schedule.test', name: 'Eve "the host", <eve@evil.test> Bcc: victim@evil.test Subject: owned Ärger via Schedule' },
    ]);
    expect(got!.parsed.headers.has('bcc')).toBe(false);
    expect(got!.parsed.subject).toBe('Booked: Meet with Eve');
    expect(got!.raw).not.toMatch(/^(Bcc|Subject: owned)/im);
  });

  describe('a server that fails: the mail waits for its next attempt, and the pass ends at once', () => {
    /** The two booking mails, the one tried first first: its attempts and when it is tried next. */
    const attemptsOf = async () =>
      (await mailRowsOf(store))
        .map(({ status, attempts, next_attempt_at }) => ({ status, attempts, next_attempt_at }))
        .sort((a, b) => b.attempts - a.attempts);
    const FIRST_FAILED = [
      { status: 'pending', attempts: 1, next_attempt_at: '2026-03-20T00:00:02.000Z' },
      // Not tried in the pass that failed: the pass ended with the first failure.
      { status: 'pending', attempts: 0, next_attempt_at: MAIL_T0 },
    ];

    it('451 at DATA (try again later): deferred, then sent with the same Message-ID once the server takes it', async () => {
      await book('2026-03-25T10:00:00Z');
      sink.mode = 'busy';

      expect(await dispatch()).toEqual({ ...NOTHING, deferred: 1 });
      expect(sink.received).toEqual([]);
      expect(await attemptsOf()).toEqual(FIRST_FAILED);

      sink.mode = 'accept';
      // The other mail is still due; the one that failed waits for its time.
      expect(await dispatch()).toEqual({ ...NOTHING, sent: 1 });
      clock.advance(2000);
      expect(await dispatch()).toEqual({ ...NOTHING, sent: 1 });
      const rows = await mailRowsOf(store);
      expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
      expect(sink.received.map((r) => r.parsed.messageId).sort()).toEqual(rows.map((r) => `<${r.id}@schedule.test>`).sort());
    });

    it('a server that hangs up on connect: deferred, then sent', async () => {
      await book('2026-03-25T10:00:00Z');
      sink.mode = 'hang-up';

      expect(await dispatch()).toEqual({ ...NOTHING, deferred: 1 });
      expect(await attemptsOf()).toEqual(FIRST_FAILED);
      sink.mode = 'accept';
      clock.advance(2000);
      expect(await dispatch()).toEqual({ ...NOTHING, sent: 2 });
      expect(sink.received).toHaveLength(2);
    });

    it('a server that greets and then never answers: the socket timeout ends the send, and the pass', async () => {
      await book('2026-03-25T10:00:00Z');
      sink.mode = 'stall';

      const started = performance.now();
      expect(await dispatch()).toEqual({ ...NOTHING, deferred: 1 });
      // One send, cut at the 300 ms socket timeout; far below the 3 s bound of a whole send.
      expect(performance.now() - started).toBeLessThan(2000);
      expect(await attemptsOf()).toEqual(FIRST_FAILED);
    });

    it('a server that never greets: the greeting timeout ends the send, and the pass', async () => {
      const silent = await startSilentServer();
      try {
        await book('2026-03-25T10:00:00Z');
        const started = performance.now();
        expect(await dispatch(smtpMailer(smtpSettings(silent.url, FROM), SHORT))).toEqual({ ...NOTHING, deferred: 1 });
        expect(performance.now() - started).toBeLessThan(2000);
        expect(silent.connections()).toBe(1);
        expect(await attemptsOf()).toEqual(FIRST_FAILED);
      } finally {
        await silent.close();
      }
    });

    it('a port nobody listens on: deferred at once', async () => {
      const closed = await startSilentServer();
      const url = closed.url;
      await closed.close();
      await book('2026-03-25T10:00:00Z');
      expect(await dispatch(smtpMailer(smtpSettings(url, FROM), SHORT))).toEqual({ ...NOTHING, deferred: 1 });
      expect(await attemptsOf()).toEqual(FIRST_FAILED);
    });

    it('the whole send is bounded too: a send that outlasts sendMs is given up', async () => {
      await book('2026-03-25T10:00:00Z');
      sink.mode = 'stall';
      // Silence is never long enough for the socket timeout here; only the bound of the whole send ends it.
      const patient = smtpMailer(smtpSettings(sink.url, FROM), { connectionMs: 1000, greetingMs: 1000, socketMs: 60_000, sendMs: 400 });

      const started = performance.now();
      expect(await dispatch(patient)).toEqual({ ...NOTHING, deferred: 1 });
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });
});
