import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenOf, getPage, postForm, timesShown } from './support/booking-page.js';
import { api } from './support/http.js';
import { movableClock, startInProcess } from './support/in-process.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { type StoredBookings, type TestDatabase, testDatabase } from './support/stored-bookings.js';

// Two visitors on the booking page race for the last free time of a day:
// both have the form open, both send it at once. One is booked (303 to its
// manage link); the other is told the time was just taken (409) and shown
// the day's times afresh, without it. On SQLite and on PostgreSQL, the API
// and the stored rows hold exactly one booking at that time.

const NOW = Date.parse('2030-01-07T06:00:00.000Z');
const HOST = 'a9000000-0000-4000-8000-000000000001';
const TOKEN = 'page-race-secret-rita-read';
const TAKEN = 'That time was just taken. Please pick another.';

/** Rita works 09:00–11:00 UTC on weekdays; on each race day three of the four half hours are booked already. */
const RACE_DAYS = ['2030-01-08', '2030-01-09', '2030-01-10', '2030-01-11', '2030-01-15'] as const;
const raceDay = (round: number) => RACE_DAYS[round]!;
const ROUNDS = RACE_DAYS.length;
const lastFree = (round: number) => `${raceDay(round)}T10:30:00.000Z`;

const workspace = {
  organization: { name: 'Page race' },
  limits: { pat_per_minute: 10_000, anonymous_per_minute: 10_000 },
  users: [
    {
      id: HOST,
      username: 'rita',
      email: 'rita@race.test',
      name: 'Rita Host',
      timezone: 'UTC',
      role: 'owner',
      schedule: { timezone: 'UTC', weekly: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [['09:00', '11:00']]])) },
    },
  ],
  event_types: [
    {
      id: 'a9100000-0000-4000-8000-000000000001',
      owner: 'rita',
      slug: 'race',
      name: 'Race',
      duration_minutes: 30,
      minimum_notice_minutes: 0,
    },
  ],
  tokens: [{ name: 'rita', user: 'rita', secret: TOKEN, scopes: ['bookings:read', 'slots:read'] }],
  bookings: Array.from({ length: ROUNDS }, (_, round) =>
    ['09:00', '09:30', '10:00'].map((time, k) => ({
      uid: `a9200000-0000-4000-8000-${String(round * 10 + k + 1).padStart(12, '0')}`,
      event_type: 'race',
      host: 'rita',
      start: `${raceDay(round)}T${time}:00.000Z`,
      attendee: { email: `early${k}@example.com`, name: 'Early Bird', timezone: 'UTC' },
      status: 'confirmed',
    })),
  ).flat(),
};

describe.each([
  ['SQLite', 'sqlite'],
  ['PostgreSQL', 'postgres'],
] as const)('two visitors race for the last free time, on %s', (_, backend) => {
  let database: TestDatabase | undefined;
  let stored: StoredBookings;
  let server: TestServer;

  beforeAll(async () => {
    database = testDatabase(backend);
    stored = database.stored;
    const clock = movableClock();
    clock.set(NOW);
    server = await startInProcess({ workspace: writeWorkspace(workspace), db: database.db, clock });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it(`${ROUNDS} rounds: one is booked, the other gets 409 and the day's fresh times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const start = lastFree(round);
      const day = raceDay(round);
      // Both see the time free, and open its form.
      const calendar = await getPage(server.url, `/@rita/race?month=2030-01&date=${day}`);
      expect(timesShown(calendar.text)).toEqual([start]);
      const forms = await Promise.all(['ann', 'bob'].map(() => getPage(server.url, `/@rita/race/book?start=${encodeURIComponent(start)}`)));
      const posts = forms.map((form, i) => ({
        form_token: formTokenOf(form.text),
        start,
        name: `Visitor ${i}`,
        email: `visitor${i}@example.com`,
        action: 'book',
      }));
      // Alternate who sends first.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const sent = await Promise.all(order.map((i) => postForm(server.url, '/@rita/race/book', posts[i]!)));
      const answers = order[0] === 0 ? sent : [sent[1]!, sent[0]!];

      const context = `round ${round}: ${answers.map((a) => a.status).join(', ')}`;
      const won = answers.filter((a) => a.status === 303);
      const lost = answers.filter((a) => a.status === 409);
      expect(won, context).toHaveLength(1);
      expect(lost, context).toHaveLength(1);
      expect(won[0]!.headers.get('location')).toMatch(/^\/booking\/[A-Za-z0-9_.-]+\?done=booked$/);
      const loser = lost[0]!;
      expect(loser.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(loser.headers.get('cache-control')).toBe('no-store');
      expect(loser.text).toContain(`<p class="notice" role="alert">${TAKEN}</p>`);
      // The same day again, looked up afresh: its last time is gone, so it lists none.
      expect(loser.text).toMatch(
        new RegExp(`<h2 id="day-title" tabindex="-1">Free times on [A-Za-z]+, January ${Number(day.slice(8))}, 2030</h2>`),
      );
      expect(timesShown(loser.text)).toEqual([]);
      // In the month grid the day is no longer offered.
      expect(loser.text).not.toContain(`class="day free" data-nav href="/@rita/race?month=2030-01&amp;date=${day}"`);
      expect(loser.text).toContain('No free times on this day.');
      expect(loser.text).not.toContain(encodeURIComponent(start));
      // Other days are still offered.
      expect(loser.text).toContain('class="day free" data-nav href="/@rita/race?month=2030-01&amp;date=2030-01-14"');

      const winner = answers.indexOf(won[0]!);
      const listed = await api(server.url, `/v1/bookings?start=${day}T00:00:00Z&end=${day}T23:59:59Z&limit=100`, {
        token: TOKEN,
        apiServer: false,
      });
      expect(listed.status).toBe(200);
      const atStart = (listed.body.data as any[]).filter((b) => b.start_at === start);
      expect(atStart.map((b) => [b.status, b.attendees[0].email])).toEqual([['confirmed', `visitor${winner}@example.com`]]);
      const rows = await stored.ofHost(HOST);
      expect(rows.filter((r) => r.start_at === start).map((r) => r.status)).toEqual(['confirmed']);
    }
    expect(await stored.overlaps(HOST)).toEqual([]);
  });
});
