import type { Principal } from '../../src/auth/principal.js';
import type { Clock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { Mail, Mailer } from '../../src/notifications/mailer.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { principalOf } from './organization.js';

// The workspace of the mail suites: one host in Europe/Berlin, free around
// the clock (no working hours), so that bookings can be put across the
// daylight-saving changes of 2026 (29 March, 25 October).

export const HANA = '70000000-0000-4000-8000-00000000000a';
/** A second host, to move a series to. */
export const IVY = '70000000-0000-4000-8000-00000000000b';
export const ET_MAIL = {
  /** 60 minutes, a year ahead, on a 30-minute grid. */
  meet: '70000000-0000-4000-8000-0000000000e1',
  /** Its attendees get no mail (`attendee_mail: false`). */
  quiet: '70000000-0000-4000-8000-0000000000e2',
} as const;
export const HANA_SECRET = 'pat_hana_mail_all_scopes';
export const HOST_EMAIL = 'hana@host.test';

/** Friday 2026-03-20 00:00 UTC: before both changes. */
export const MAIL_T0 = '2026-03-20T00:00:00.000Z';

export function mailWorkspace(options: { attendeeMail?: boolean } = {}): Record<string, unknown> {
  // No reminders: these suites count booking mail (reminders have their own, reminders.test.ts).
  const common = { owner: 'hana', future_limit_days: 365, slot_interval_minutes: 30, reminders: [] };
  return {
    organization: { name: 'Mail' },
    ...(options.attendeeMail === undefined ? {} : { attendee_mail: options.attendeeMail }),
    users: [
      { id: HANA, username: 'hana', email: HOST_EMAIL, name: 'Hana Host', timezone: 'Europe/Berlin', role: 'owner' },
      { id: IVY, username: 'ivy', email: 'ivy@host.test', name: 'Ivy Host', timezone: 'Europe/Berlin', role: 'user' },
    ],
    event_types: [
      { ...common, id: ET_MAIL.meet, slug: 'meet', name: 'Meet', duration_minutes: 60 },
      { ...common, id: ET_MAIL.quiet, slug: 'quiet', name: 'Quiet', duration_minutes: 30, attendee_mail: false },
    ],
    tokens: [
      {
        name: 'hana',
        user: 'hana',
        secret: HANA_SECRET,
        scopes: [
          'series:read',
          'series:write',
          'bookings:read',
          'bookings:create',
          'bookings:cancel',
          'bookings:reschedule',
          'bookings:update',
        ],
      },
    ],
  };
}

/** Loads (or reloads) the workspace; a reload only changes what differs, such as `attendee_mail`. */
export async function loadMailWorkspace(
  deps: { store: Store; clock: Clock },
  options: { attendeeMail?: boolean } = {},
): Promise<Principal> {
  await loadWorkspace({ ...deps, ids: randomIds }, parseWorkspace(JSON.stringify(mailWorkspace(options))));
  return principalOf(deps, HANA_SECRET);
}

/** Everything the mail suites write, gone: each test starts from the workspace alone. */
export async function clearMailWrites(store: Store): Promise<void> {
  for (const table of ['notifications', 'outbox', 'idempotency_keys', 'series_owed', 'bookings', 'series'] as const) {
    await store.db.deleteFrom(table).execute();
  }
}

/** The notification rows, oldest first, with their payloads parsed. */
export async function mailRowsOf(store: Store) {
  const rows = await store.db.selectFrom('notifications').selectAll().orderBy('created_at').orderBy('recipient').orderBy('id').execute();
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload_json) as Record<string, unknown> }));
}

/** A mailer that keeps every mail it is handed, in order. */
export function recordingMailer(): Mailer & { delivered: Mail[] } {
  return {
    delivered: [],
    async send(mail) {
      this.delivered.push(mail);
      return undefined;
    },
  };
}

/** Weekly on Mondays at 10:00 in Berlin, three times from 23 March (across the spring change), `changes` over it. */
export function mailSeriesBody(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    host_user_id: HANA,
    event_type_id: ET_MAIL.meet,
    attendee: { email: 'bob@guest.test', name: 'Bob Guest' },
    frequency: 'weekly',
    weekdays: ['mon'],
    time: '10:00',
    timezone: 'Europe/Berlin',
    starts_on: '2026-03-23',
    count: 3,
    ...changes,
  };
}
