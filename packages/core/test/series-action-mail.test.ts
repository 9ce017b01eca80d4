import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENDED_REASON } from '../src/series/end-series.js';
import { rescheduleBooking } from './support/booking-calls.js';
import {
  changeSeriesHost,
  endSeries,
  notificationsOf,
  occurrenceRowsOf,
  pauseSeries,
  resumeSeries,
  updateSeries,
} from './support/series-calls.js';
import {
  at,
  type CreatedSeries,
  hanaBooked,
  MON_WED_DATES,
  openSeriesScenario,
  resetSeriesScenario,
  type SeriesScenario,
  seriesCreated,
  weeklyBody,
} from './support/series-scenario.js';
import { SERIES_ET, USER } from './support/series-workspace.js';
import { storeFixtures } from './support/stores.js';

// docs/mail.md "What each series action sends", read off the queued rows:
// each occurrence an action books, cancels or changes gets one booking mail
// of its own, to the attendee alone, and only while the series notifies the
// invitee and attendee mail is on. series-mail-calendar.test.ts follows the
// same mail through SMTP into a calendar, where Python's icalendar is at hand.

/** Wednesday 2026-03-04 12:00 UTC: the first two occurrences of the standard series are past. */
const AFTER_SECOND = '2026-03-04T12:00:00.000Z';
const BOB = 'bob@example.com';
const HANA = { email: 'hana@acme.test', name: 'Hana Host' };
const IVAN = { email: 'ivan@acme.test', name: 'Ivan Host' };
const NEW_LINK = 'https://meet.example/new';

describe.each(storeFixtures())('the attendee mail of series actions on $name', (fixture) => {
  let s: SeriesScenario;
  let created: CreatedSeries;
  let uid: string;

  beforeAll(async () => {
    s = await openSeriesScenario(fixture);
  });
  beforeEach(async () => {
    await resetSeriesScenario(s);
  });
  afterAll(() => fixture.cleanup());

  /** Creates hana's standard series with these changes, and forgets the create's own mail. */
  const create = async (changes: Record<string, unknown> = {}) => {
    created = await seriesCreated(s, weeklyBody(changes));
    uid = created.series.uid;
    await forget();
  };
  const forget = () => s.store.db.deleteFrom('notifications').execute();
  const occurrence = (i: number) => created.occurrences[i]!;
  /** The booking mail queued, by kind then start: what it is about, to whom, and what it says of the change. */
  const bookingMail = async () =>
    (await notificationsOf(s.store))
      .filter((n) => n.kind.startsWith('booking_'))
      .map(({ kind, booking_uid, recipient, payload }) => ({
        kind,
        booking_uid,
        recipient,
        role: payload.role,
        start_at: payload.start_at,
        status: payload.status,
        sequence: payload.sequence,
        host: payload.host,
        reason: payload.reason,
        changed: payload.changed,
      }))
      .sort((a, b) => a.kind.localeCompare(b.kind) || String(a.start_at).localeCompare(String(b.start_at)));
  /** The mail about one occurrence, to bob as the attendee. */
  const toBob = (
    kind: string,
    bookingUid: string | null,
    startAt: string,
    more: { status?: string; sequence?: number; host?: object; reason?: string; changed?: string } = {},
  ) => ({
    kind,
    booking_uid: bookingUid,
    recipient: BOB,
    role: 'attendee',
    start_at: startAt,
    status: more.status ?? (kind === 'booking_canceled' ? 'canceled' : 'confirmed'),
    sequence: more.sequence ?? (kind === 'booking_created' ? 1 : 2),
    host: more.host ?? HANA,
    reason: more.reason,
    changed: more.changed,
  });
  /** The series' confirmed bookings the action booked, not the create: uid and start. */
  const replacements = async () =>
    (await occurrenceRowsOf(s.store, uid))
      .filter((o) => o.status === 'confirmed' && !created.occurrences.some((c) => c.uid === o.uid))
      .map((o) => ({ uid: o.uid, start_at: o.start_at }));
  const attendeeMailOff = async (where: 'event_type' | 'organization') => {
    if (where === 'event_type')
      await s.store.db.updateTable('event_types').set({ attendee_mail: 0 }).where('id', '=', SERIES_ET.weekly).execute();
    else await s.store.db.updateTable('organization').set({ attendee_mail: 0 }).execute();
  };

  describe('a pattern PATCH', () => {
    it('cancels each occurrence it holds to the attendee alone, without the held reason, and invites to each replacement', async () => {
      await create();
      s.clock.set(AFTER_SECOND);

      expect((await updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' })).outcome.data).toMatchObject({
        resumed: { created: 4, owed: 0 },
      });

      const booked = await replacements();
      expect(booked.map((b) => b.start_at)).toEqual(MON_WED_DATES.slice(2).map((d) => at(d, '11:00')));
      expect(await bookingMail()).toEqual([
        ...[2, 3, 4, 5].map((i) => toBob('booking_canceled', occurrence(i).uid, occurrence(i).start_at)),
        ...booked.map((b) => toBob('booking_created', b.uid, b.start_at)),
      ]);
    });

    it('an occurrence it held and a later resume replaced is not canceled to the attendee a second time', async () => {
      await create();
      // Hana is busy at the new time on the last date: that one stays owed.
      const busy = await hanaBooked(s, at(MON_WED_DATES[5], '11:00'), 'busy-18');
      await updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' });
      expect((await bookingMail()).filter((m) => m.kind === 'booking_canceled' && m.booking_uid === occurrence(5).uid)).toHaveLength(1);
      await s.store.db.updateTable('bookings').set({ status: 'canceled' }).where('uid', '=', busy).execute();
      await forget();

      expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toMatchObject({ created: 1, owed: 0 });

      // Only the replacement's invite: the held one's cancellation went when the PATCH held it.
      const [replacement] = (await replacements()).filter((b) => b.start_at === at(MON_WED_DATES[5], '11:00'));
      expect(await bookingMail()).toEqual([toBob('booking_created', replacement!.uid, replacement!.start_at)]);
    });

    it('one turning notify_invitee on sends what it moves; one turning it off sends nothing', async () => {
      await create({ notify_invitee: false });
      await updateSeries(s.deps, s.as.hana, uid, { time: '11:00', notify_invitee: true }, { ifMatch: '*' });
      expect((await bookingMail()).map((m) => m.kind)).toEqual([...Array(6).fill('booking_canceled'), ...Array(6).fill('booking_created')]);

      await forget();
      await updateSeries(s.deps, s.as.hana, uid, { time: '12:00', notify_invitee: false }, { ifMatch: '*' });
      expect(await notificationsOf(s.store)).toEqual([]);
    });
  });

  describe('a location PATCH', () => {
    it('sends each future confirmed occurrence a change naming the location, and nothing to the past or a canceled one', async () => {
      await create({ location_url: 'https://meet.example/old' });
      s.clock.set(AFTER_SECOND);
      await s.store.db.updateTable('bookings').set({ status: 'canceled' }).where('uid', '=', occurrence(4).uid).execute();

      await updateSeries(s.deps, s.as.hana, uid, { location_url: NEW_LINK }, { ifMatch: '*' });

      expect(await bookingMail()).toEqual(
        [2, 3, 5].map((i) => toBob('booking_changed', occurrence(i).uid, occurrence(i).start_at, { changed: 'location' })),
      );
      const locations = (await notificationsOf(s.store)).map((n) => n.payload.location);
      expect(locations).toEqual(Array(3).fill({ type: 'link', url: NEW_LINK, value: null }));
    });

    it('the same location again changes nothing and sends nothing', async () => {
      await create({ location_url: NEW_LINK });
      const versions = (await occurrenceRowsOf(s.store, uid)).map((o) => o.version);

      expect((await updateSeries(s.deps, s.as.hana, uid, { location_url: NEW_LINK }, { ifMatch: '*' })).outcome.status).toBe(200);

      expect(await notificationsOf(s.store)).toEqual([]);
      expect((await occurrenceRowsOf(s.store, uid)).map((o) => o.version)).toEqual(versions);
    });
  });

  describe('pause and resume', () => {
    it('a pause queues nothing; its resume cancels each held occurrence to the attendee and invites to each replacement', async () => {
      await create();
      s.clock.set(AFTER_SECOND);

      await pauseSeries(s.deps, s.as.hana, uid);
      expect(await notificationsOf(s.store)).toEqual([]);

      s.clock.set('2026-03-05T09:00:00.000Z');
      expect((await resumeSeries(s.deps, s.as.hana, uid)).outcome.data).toMatchObject({ created: 4, owed: 0 });
      const booked = await replacements();
      expect(await bookingMail()).toEqual([
        ...[2, 3, 4, 5].map((i) => toBob('booking_canceled', occurrence(i).uid, occurrence(i).start_at)),
        ...booked.map((b) => toBob('booking_created', b.uid, b.start_at)),
      ]);
    });
  });

  describe('end', () => {
    it('cancels each future occurrence to the attendee with the end reason, beside the notice', async () => {
      await create();
      s.clock.set(AFTER_SECOND);

      await endSeries(s.deps, s.as.hana, uid);

      expect(await bookingMail()).toEqual(
        [2, 3, 4, 5].map((i) => toBob('booking_canceled', occurrence(i).uid, occurrence(i).start_at, { reason: ENDED_REASON })),
      );
      expect((await notificationsOf(s.store)).filter((n) => n.kind === 'series_ended').map((n) => n.recipient)).toEqual([BOB]);
    });

    it('of a paused series cancels what the pause held, without a reason, and what the invitee moved, with it', async () => {
      await create();
      s.clock.set(AFTER_SECOND);
      await rescheduleBooking(s.deps, s.as.hana, occurrence(3).uid, { start: '2026-03-12T14:00:00Z' }, 'move-3');
      await pauseSeries(s.deps, s.as.hana, uid);
      await forget();

      await endSeries(s.deps, s.as.hana, uid);

      expect(await bookingMail()).toEqual(
        [
          ...[2, 4, 5].map((i) => toBob('booking_canceled', occurrence(i).uid, occurrence(i).start_at)),
          toBob('booking_canceled', occurrence(3).uid, '2026-03-12T14:00:00.000Z', { sequence: 3, reason: ENDED_REASON }),
        ].sort((a, b) => a.start_at.localeCompare(b.start_at)),
      );
    });

    it('of a series a PATCH left owing sends no second cancellation of what the PATCH held', async () => {
      await create();
      await hanaBooked(s, at(MON_WED_DATES[5], '11:00'), 'busy-18-end');
      await updateSeries(s.deps, s.as.hana, uid, { time: '11:00' }, { ifMatch: '*' });
      await forget();

      await endSeries(s.deps, s.as.hana, uid);

      // The five replacements are canceled by the end; the one still owed was canceled to the attendee when held.
      const canceled = (await bookingMail()).map((m) => [m.booking_uid, m.reason]);
      expect(canceled).toHaveLength(5);
      expect(canceled.map(([bookingUid]) => bookingUid)).not.toContain(occurrence(5).uid);
      expect(new Set(canceled.map(([, reason]) => reason))).toEqual(new Set([ENDED_REASON]));
    });
  });

  describe('host change', () => {
    it('sends each occurrence it moves a change naming the new host and the new title; a repeat sends nothing', async () => {
      await create();
      s.clock.set(AFTER_SECOND);

      await changeSeriesHost(s.deps, s.as.mona, uid, { host_user_id: USER.ivan });

      expect(await bookingMail()).toEqual(
        [2, 3, 4, 5].map((i) => toBob('booking_changed', occurrence(i).uid, occurrence(i).start_at, { host: IVAN, changed: 'host' })),
      );
      const titles = (await notificationsOf(s.store)).map((n) => n.payload.title);
      expect(new Set(titles)).toEqual(new Set(['Weekly between Ivan Host and Bob Invitee']));

      await forget();
      expect((await changeSeriesHost(s.deps, s.as.mona, uid, { host_user_id: USER.ivan })).outcome.data).toMatchObject({
        moved: 0,
        unchanged: 4,
      });
      expect(await notificationsOf(s.store)).toEqual([]);
    });
  });

  describe('mail switched off', () => {
    /** Every action that mails an occurrence: a time PATCH, a link PATCH, pause and resume, a host change, an end. */
    const everyAction = async () => {
      await updateSeries(s.deps, s.as.mona, uid, { time: '11:00', location_url: NEW_LINK }, { ifMatch: '*' });
      await pauseSeries(s.deps, s.as.mona, uid);
      await resumeSeries(s.deps, s.as.mona, uid);
      await changeSeriesHost(s.deps, s.as.mona, uid, { host_user_id: USER.ivan });
      await pauseSeries(s.deps, s.as.mona, uid);
      await endSeries(s.deps, s.as.mona, uid);
    };

    it('with notify_invitee false, no action queues any mail', async () => {
      await create({ notify_invitee: false, location_url: 'https://meet.example/old' });
      await everyAction();
      expect(await notificationsOf(s.store)).toEqual([]);
    });

    for (const where of ['event_type', 'organization'] as const) {
      it(`with the ${where}'s attendee mail off, no action queues the attendee any mail, the end notice neither`, async () => {
        await create({ location_url: 'https://meet.example/old' });
        await attendeeMailOff(where);
        await everyAction();
        expect(await notificationsOf(s.store)).toEqual([]);
      });
    }
  });
});
