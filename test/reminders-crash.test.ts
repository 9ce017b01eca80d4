import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  conferenceLinksAt,
  createAuthenticator,
  createCalendarReader,
  dispatchNotifications,
  execute,
  icsFeedReader,
  loadWorkspace,
  type Mailer,
  manualClock,
  openStore,
  operationsByName,
  parseWorkspace,
  randomIds,
} from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSchema, testSchema } from './support/postgres.js';
import { tempDir } from './support/serve.js';

// Issue 37: reminders survive a dispatcher killed with SIGKILL in the middle
// of a pass, and two dispatchers then share what is left. No reminder is
// lost; one is sent twice only when the crash fell between handing it to the
// mail server and recording its batch (docs/reminders.md "Once"), so at most
// the sends of one batch (MAIL_CONCURRENCY, 4 here) go twice.

const CRASH_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'support', 'crash-remind.mjs');
const SECRET = 'pat_remind_crash';
const T0 = '2026-03-02T08:00:00.000Z';
const START = '2026-03-03T10:00:00.000Z';
/** The moment every reminder is due: an hour before the start. */
const DUE = '2026-03-03T09:00:00.000Z';
const SEATS = 10;
const WORKSPACE = {
  organization: { name: 'Crash' },
  users: [{ id: '77000000-0000-4000-8000-00000000000a', username: 'cy', email: 'cy@host.test', name: 'Cy Host', role: 'owner' }],
  event_types: [
    {
      id: '77000000-0000-4000-8000-0000000000e1',
      owner: 'cy',
      slug: 'class',
      name: 'Class',
      duration_minutes: 60,
      seats: SEATS,
      future_limit_days: 30,
      reminders: [{ minutes: 60, to: 'both' }],
    },
  ],
  tokens: [{ name: 'cy', user: 'cy', secret: SECRET, scopes: ['bookings:create'] }],
};

/** Runs the dispatcher that kills itself at its Nth send; resolves with how it ended and what it sent. */
function runCrash(db: string, crashAt: number): Promise<{ signal: string | null; code: number | null; sent: string[]; stderr: string }> {
  const sentFile = join(tempDir('schedule-remind-crash-'), 'sent.txt');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CRASH_SCRIPT, db, DUE, String(crashAt), sentFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code, signal) => {
      let sent: string[] = [];
      try {
        sent = readFileSync(sentFile, 'utf8').split('\n').filter(Boolean);
      } catch {}
      resolve({ signal, code, sent, stderr });
    });
  });
}

describe.each([
  ['SQLite file', 'sqlite'],
  ['PostgreSQL schema', 'postgres'],
] as const)('reminders when a dispatcher is killed, on a %s', (_, backend) => {
  let schema: TestSchema | undefined;
  let db: string;

  beforeAll(() => {
    if (backend === 'postgres') {
      schema = testSchema();
      db = schema.dbUrl;
    } else {
      db = join(tempDir('schedule-remind-crash-'), 'remind.db');
    }
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it('killed after its sixth send: nothing lost, and only the sends of the batch it never recorded go twice', async () => {
    const clock = manualClock(T0);
    const store = await openStore(db);
    await loadWorkspace({ store, clock, ids: randomIds }, parseWorkspace(JSON.stringify(WORKSPACE)));
    const principal = (await createAuthenticator({ store, clock })(SECRET))!;
    const deps = {
      store,
      clock,
      ids: randomIds,
      idempotencyLeaseMs: 30_000,
      calendars: createCalendarReader(icsFeedReader({ clock })),
      conferenceLinks: conferenceLinksAt('https://meet.test'),
    };
    for (let seat = 0; seat < SEATS; seat++) {
      const body = {
        event_type_id: WORKSPACE.event_types[0]!.id,
        start: START,
        attendee: { email: `p${seat}@guest.test`, name: `P${seat}` },
      };
      const { outcome } = await execute(
        deps,
        operationsByName.create_booking,
        principal,
        { params: {}, query: {}, body, idempotencyKey: `seat-${seat}` },
        `r${seat}`,
      );
      expect((outcome as { status: number }).status).toBe(201);
    }
    // The booking mails go first, so only the reminders are due when the dispatcher is killed.
    const quiet: Mailer = { send: async () => undefined };
    await dispatchNotifications({ store, clock, ids: randomIds, mailer: quiet }, { limit: 1000 });
    const reminders = await store.db.selectFrom('notifications').select('id').where('kind', '=', 'booking_reminder').execute();
    expect(reminders).toHaveLength(2 * SEATS);

    const crash = await runCrash(db, 6);
    expect(crash.signal, `exit ${crash.code}: ${crash.stderr}`).toBe('SIGKILL');
    expect(crash.sent).toHaveLength(6);
    const recorded = (
      await store.db.selectFrom('notifications').select('id').where('kind', '=', 'booking_reminder').where('status', '=', 'sent').execute()
    ).map((r) => r.id);
    // Its first batch of four was recorded; the second was cut off between sends and their record.
    expect(recorded).toHaveLength(4);

    // Once the dead dispatcher's 30 s claim has run out (within the 15-minute grace), two dispatchers share the rest.
    clock.set('2026-03-03T09:00:31.000Z');
    const other = await openStore(db);
    const sent: string[] = [];
    const recording: Mailer = {
      async send(mail) {
        sent.push(mail.id);
        return undefined;
      },
    };
    await Promise.all(
      [store, other].map((s) =>
        dispatchNotifications({ store: s, clock, ids: randomIds, mailer: recording }, { limit: 1000, concurrency: 3 }),
      ),
    );
    await other.close();

    const all = reminders.map((r) => r.id);
    // None lost: every reminder was handed over by one of them.
    expect([...new Set([...crash.sent, ...sent])].sort()).toEqual([...all].sort());
    // The survivors sent each at most once, and none the dead one had recorded.
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.filter((id) => recorded.includes(id))).toEqual([]);
    // Twice: exactly the sends of the unrecorded batch, at most MAIL_CONCURRENCY of them.
    const twice = crash.sent.filter((id) => sent.includes(id));
    expect(twice.sort()).toEqual(crash.sent.filter((id) => !recorded.includes(id)).sort());
    expect(twice.length).toBeLessThanOrEqual(4);
    const statuses = await store.db.selectFrom('notifications').select('status').where('kind', '=', 'booking_reminder').execute();
    expect(statuses.every((r) => r.status === 'sent')).toBe(true);
    await store.close();
  });
});
