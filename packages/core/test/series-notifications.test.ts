import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomIds } from '../src/ids.js';
import { type DispatchReport, dispatchNotifications, MAX_SEND_ATTEMPTS } from '../src/notifications/dispatch-notifications.js';
import type { Mail, Mailer } from '../src/notifications/mailer.js';
import { rescheduleBooking } from './support/booking-calls.js';
import { changeSeriesHost, endSeries, notificationsOf, pauseSeries, resumeSeries, updateSeries } from './support/series-calls.js';
import {
  at,
  type CreatedSeries,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seriesCreated,
  seriesNow,
  weeklyBody,
} from './support/series-scenario.js';
import { S0, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

/** Wednesday 2026-03-04 12:00 UTC: the first two occurrences of the standard series are past. */
const AFTER_SECOND = '2026-03-04T12:00:00.000Z';
const NOTHING: DispatchReport = { sent: 0, suppressed: 0, failed: 0, deferred: 0 };

/** A mailer that keeps what it was handed, and fails the sends a test tells it to. */
function recordingMailer(): Mailer & { delivered: Mail[]; attempts: number; failNext: number } {
  return {
    delivered: [],
    attempts: 0,
    failNext: 0,
    async send(mail) {
      this.attempts++;
      if (this.failNext > 0) {
        this.failNext--;
        throw new Error('the mail server refused the message');
      }
      this.delivered.push(mail);
      return undefined;
    },
  };
}

/** What these tests compare of a mail: whom it is for and what it says (series-invites.test.ts checks the invite). */
const summary = ({ to, subject, text, kind, seriesUid }: Mail) => ({ to, subject, text, kind, seriesUid });

/** A line of a mail's date list, as the attendee reads it in UTC. */
const line = (when: string) => `  - ${when} (UTC)`;

describe.each(storeFixtures())('series notifications on $name', (fixture) => {
  let s: SeriesScenario;
  let mailer: ReturnType<typeof recordingMailer>;
  let created: CreatedSeries;
  let uid: string;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
    mailer = recordingMailer();
  });
  afterAll(() => fixture.cleanup());

  const dispatch = () => dispatchNotifications({ store: s.store, clock: s.clock, ids: randomIds, mailer });
  const create = async (changes: Record<string, unknown> = {}) => {
    created = await seriesCreated(s, weeklyBody(changes));
    uid = created.series.uid;
  };
  const occurrence = (i: number) => created.occurrences[i]!;
  /**
   * Leaves the series' own mail alone in the queue: each occurrence's invite goes in a booking mail of
   * its own (docs/mail.md; series-mail-calendar.test.ts follows them), and these tests are about the
   * series mail's own life (queued, suppressed, retried, given up).
   */
  const onlySeriesMail = () => s.store.db.deleteFrom('notifications').where('kind', 'not like', 'series_%').execute();
  const rows = async () =>
    (await notificationsOf(s.store)).map(({ kind, series_uid, recipient, status, attempts, sent_at }) => ({
      kind,
      series_uid,
      recipient,
      status,
      attempts,
      sent_at,
    }));

  const CONFIRMATION_TEXT = [
    'Hello Bob Invitee,',
    '',
    'Weekly with Hana Host is booked on these dates:',
    line('Monday 2 March 2026, 10:00'),
    line('Wednesday 4 March 2026, 10:00'),
    line('Monday 9 March 2026, 10:00'),
    line('Wednesday 11 March 2026, 10:00'),
    line('Monday 16 March 2026, 10:00'),
    line('Wednesday 18 March 2026, 10:00'),
  ].join('\n');

  describe('confirmation', () => {
    it('a create queues one confirmation to the attendee, listing the booked dates, sent exactly once', async () => {
      await create();
      // Beside it, each occurrence's invite in a booking mail of its own, to the attendee alone.
      expect((await notificationsOf(s.store)).filter((n) => n.kind === 'booking_created').map((n) => [n.booking_uid, n.recipient])).toEqual(
        expect.arrayContaining(created.occurrences.map((o) => [o.uid, 'bob@example.com'])),
      );
      expect(await notificationsOf(s.store)).toHaveLength(1 + created.occurrences.length);
      await onlySeriesMail();
      const [queued] = await notificationsOf(s.store);
      expect(queued).toMatchObject({
        kind: 'series_confirmation',
        series_uid: uid,
        recipient: 'bob@example.com',
        status: 'pending',
        attempts: 0,
        next_attempt_at: S0,
        created_at: S0,
        sent_at: null,
      });

      expect(await dispatch()).toEqual({ ...NOTHING, sent: 1 });
      expect(mailer.delivered.map(summary)).toEqual([
        {
          to: 'bob@example.com',
          subject: 'Booked: Weekly with Hana Host',
          text: CONFIRMATION_TEXT,
          kind: 'series_confirmation',
          seriesUid: uid,
        },
      ]);
      expect(await rows()).toEqual([
        { kind: 'series_confirmation', series_uid: uid, recipient: 'bob@example.com', status: 'sent', attempts: 1, sent_at: S0 },
      ]);

      expect(await dispatch()).toEqual(NOTHING);
      expect(mailer.attempts).toBe(1);
    });

    it('the confirmation reports dates that were not free and the fixed link', async () => {
      await create({ location_url: 'https://meet.example/bob', starts_on: '2026-03-06', weekdays: ['fri', 'sat'], count: 3 });
      await onlySeriesMail();
      await dispatch();

      expect(mailer.delivered.map((m) => m.text)).toEqual([
        [
          'Hello Bob Invitee,',
          '',
          'Weekly with Hana Host is booked on these dates:',
          line('Friday 6 March 2026, 10:00'),
          line('Friday 13 March 2026, 10:00'),
          '',
          'These dates were not free and are not booked:',
          line('Saturday 7 March 2026, 10:00'),
          '',
          'Join at https://meet.example/bob',
        ].join('\n'),
      ]);
    });

    it('the series is not left held once its mail is sent: an action right after succeeds', async () => {
      await create();
      await dispatch();

      expect((await pauseSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ held: 6, superseded: false });
    });

    it('notify_invitee false at create queues no notification at all, and neither does its end', async () => {
      await create({ notify_invitee: false });
      await endSeries(s.deps, s.as.hana, uid);

      expect(await notificationsOf(s.store)).toEqual([]);
      expect(await dispatch()).toEqual(NOTHING);
      expect(mailer.attempts).toBe(0);
    });

    it('notify_invitee patched to false before the confirmation is sent suppresses it', async () => {
      await create();
      await onlySeriesMail();
      await updateSeries(s.deps, s.as.hana, uid, { notify_invitee: false }, { ifMatch: '"1"' });

      expect(await dispatch()).toEqual({ ...NOTHING, suppressed: 1 });
      expect(mailer.attempts).toBe(0);
      expect(await rows()).toEqual([
        { kind: 'series_confirmation', series_uid: uid, recipient: 'bob@example.com', status: 'suppressed', attempts: 0, sent_at: null },
      ]);
      expect(await dispatch()).toEqual(NOTHING);
    });
  });

  describe('what the other actions send', () => {
    it("pause sends nothing; resume, host change and PATCH send no series mail, only the attendee's booking mail", async () => {
      await create();
      await dispatch();

      await pauseSeries(s.deps, s.as.hana, uid);
      expect(await dispatch()).toEqual(NOTHING);
      await resumeSeries(s.deps, s.as.hana, uid);
      await changeSeriesHost(s.deps, s.as.mona, uid, { host_user_id: USER.ivan });
      await updateSeries(s.deps, s.as.mona, uid, { time: '11:00' }, { ifMatch: '*' });

      const queued = (await notificationsOf(s.store)).filter((n) => n.status === 'pending');
      expect(new Set(queued.map((n) => n.kind))).toEqual(new Set(['booking_created', 'booking_canceled', 'booking_changed']));
      expect(new Set(queued.map((n) => n.recipient))).toEqual(new Set(['bob@example.com']));
    });
  });

  describe('end notice', () => {
    it('an end queues exactly one notice listing every date it canceled', async () => {
      await create();
      await dispatch();
      mailer.delivered.length = 0;
      s.clock.set(AFTER_SECOND);

      await endSeries(s.deps, s.as.hana, uid);

      const notices = (await notificationsOf(s.store)).filter((n) => n.kind === 'series_ended');
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ series_uid: uid, recipient: 'bob@example.com', status: 'pending' });
      expect(notices[0]!.payload).toEqual({
        attendee_name: 'Bob Invitee',
        attendee_email: 'bob@example.com',
        event_type_name: 'Weekly',
        host_name: 'Hana Host',
        host_email: 'hana@acme.test',
        timezone: 'UTC',
        // Each with its booking and the version the end's cancel wrote, for the notice's invite.
        occurrences: [2, 3, 4, 5].map((i) => ({
          start_at: occurrence(i).start_at,
          end_at: occurrence(i).end_at,
          uid: occurrence(i).uid,
          sequence: 2,
          location_url: `https://meet.test/${occurrence(i).uid}`,
        })),
      });
      expect(notices[0]!.payload.occurrences).toMatchObject(
        ['2026-03-09', '2026-03-11', '2026-03-16', '2026-03-18'].map((d) => ({ start_at: at(d), end_at: at(d, '10:30') })),
      );

      // The notice, and each canceled occurrence's cancellation in a mail of its own.
      expect(await dispatch()).toEqual({ ...NOTHING, sent: 5 });
      expect(
        mailer.delivered
          .filter((m) => m.kind === 'booking_canceled')
          .map((m) => m.bookingUid)
          .sort(),
      ).toEqual([2, 3, 4, 5].map((i) => occurrence(i).uid).sort());
      expect(summary(mailer.delivered.find((m) => m.kind === 'series_ended')!)).toEqual({
        to: 'bob@example.com',
        subject: 'Canceled: Weekly with Hana Host',
        text: [
          'Hello Bob Invitee,',
          '',
          'Weekly with Hana Host has ended. These meetings are canceled:',
          line('Monday 9 March 2026, 10:00'),
          line('Wednesday 11 March 2026, 10:00'),
          line('Monday 16 March 2026, 10:00'),
          line('Wednesday 18 March 2026, 10:00'),
        ].join('\n'),
        kind: 'series_ended',
        seriesUid: uid,
      });
      expect(await dispatch()).toEqual(NOTHING);
    });

    it('the notice lists what the end canceled, not what an earlier pause held', async () => {
      await create();
      s.clock.set(AFTER_SECOND);
      await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');
      await pauseSeries(s.deps, s.as.hana, uid);

      await endSeries(s.deps, s.as.hana, uid);

      const notices = (await notificationsOf(s.store)).filter((n) => n.kind === 'series_ended');
      expect(notices.map((n) => n.payload.occurrences)).toEqual([
        [
          {
            start_at: '2026-03-12T14:00:00.000Z',
            end_at: '2026-03-12T14:30:00.000Z',
            uid: occurrence(3).uid,
            // Created at 1, moved at 2, canceled by the end at 3.
            sequence: 3,
            location_url: `https://meet.test/${occurrence(3).uid}`,
          },
        ],
      ]);
    });

    it('an end that canceled nothing queues no notice', async () => {
      await create();
      await pauseSeries(s.deps, s.as.hana, uid);

      expect((await endSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ canceled: 0, superseded: false });
      expect((await notificationsOf(s.store)).filter((n) => n.kind.startsWith('series_')).map((n) => n.kind)).toEqual([
        'series_confirmation',
      ]);
    });

    it('a replayed end queues no second notice', async () => {
      await create();
      await endSeries(s.deps, s.as.hana, uid, { key: 'end-once' });
      await endSeries(s.deps, s.as.hana, uid, { key: 'end-once' });

      // Both were queued at S0; their order among themselves is not defined.
      const seriesKinds = (await notificationsOf(s.store)).map((n) => n.kind).filter((k) => k.startsWith('series_'));
      expect(seriesKinds.sort()).toEqual(['series_confirmation', 'series_ended']);
    });
  });

  describe('failed sends', () => {
    it('a send that fails is retried once the clock passes next_attempt_at', async () => {
      await create();
      await onlySeriesMail();
      mailer.failNext = 1;

      expect(await dispatch()).toEqual({ ...NOTHING, deferred: 1 });
      const [pending] = await notificationsOf(s.store);
      expect(pending).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
      const retryAt = Date.parse(pending!.next_attempt_at);
      expect(retryAt).toBeGreaterThan(s.clock.now());

      expect(await dispatch()).toEqual(NOTHING);
      s.clock.set(retryAt - 1);
      expect(await dispatch()).toEqual(NOTHING);
      expect(mailer.attempts).toBe(1);

      s.clock.set(retryAt);
      expect(await dispatch()).toEqual({ ...NOTHING, sent: 1 });
      expect(mailer.delivered).toHaveLength(1);
      expect(await rows()).toEqual([
        {
          kind: 'series_confirmation',
          series_uid: uid,
          recipient: 'bob@example.com',
          status: 'sent',
          attempts: 2,
          sent_at: new Date(retryAt).toISOString(),
        },
      ]);
    });

    it(`a mail that fails ${MAX_SEND_ATTEMPTS} times is marked failed and never tried again`, async () => {
      await create();
      await onlySeriesMail();
      mailer.failNext = Number.POSITIVE_INFINITY;

      for (let attempt = 1; attempt < MAX_SEND_ATTEMPTS; attempt++) {
        expect(await dispatch()).toEqual({ ...NOTHING, deferred: 1 });
        const [pending] = await notificationsOf(s.store);
        expect(pending).toMatchObject({ status: 'pending', attempts: attempt });
        s.clock.set(pending!.next_attempt_at);
      }
      expect(await dispatch()).toEqual({ ...NOTHING, failed: 1 });
      expect(await rows()).toEqual([
        {
          kind: 'series_confirmation',
          series_uid: uid,
          recipient: 'bob@example.com',
          status: 'failed',
          attempts: MAX_SEND_ATTEMPTS,
          sent_at: null,
        },
      ]);

      s.clock.advance(3600_000);
      expect(await dispatch()).toEqual(NOTHING);
      expect(mailer.attempts).toBe(MAX_SEND_ATTEMPTS);
      expect(mailer.delivered).toEqual([]);
      // The series was never left held by a failed send.
      expect((await seriesNow(s, uid)).status).toBe('active');
      expect((await pauseSeries(s.deps, s.as.hana, uid)).outcome.data).toEqual({ held: 6, superseded: false });
    });
  });
});
