import type { KyselyPlugin, RootOperationNode } from 'kysely';
import type { Principal } from '../../src/auth/principal.js';
import type { ManualClock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { ManageLinkWriter } from '../../src/manage-links/manage-link.js';
import { dispatchNotifications } from '../../src/notifications/dispatch-notifications.js';
import type { ExecuteDeps } from '../../src/operations/execute.js';
import { REMINDER_KIND } from '../../src/reminders/schedule-reminders.js';
import type { Store } from '../../src/storage/store.js';
import { loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';
import { cancelBooking, createBooking, rescheduleBooking } from './booking-calls.js';
import { recordingMailer } from './mail-workspace.js';
import { principalOf } from './organization.js';

// The workspace of the reminder suites: Rhea hosts in Berlin, free around
// the clock; her attendees are in Tokyo, so a reminder's time reads
// differently to each side.

export const RHEA = '76000000-0000-4000-8000-00000000000a';
export const SAM = '76000000-0000-4000-8000-00000000000b';
export const ET_REMIND = {
  /** 30 minutes; the rules below. */
  remind: '76000000-0000-4000-8000-0000000000e1',
  /** Needs the host's confirmation; the default rules. */
  ask: '76000000-0000-4000-8000-0000000000e2',
  /** Its attendees get no mail. */
  quiet: '76000000-0000-4000-8000-0000000000e3',
  /** Sam and Rhea meet every attendee together; the host hears an hour ahead. */
  together: '76000000-0000-4000-8000-0000000000e4',
} as const;
export const RHEA_SECRET = 'pat_rhea_reminders';
export const RHEA_EMAIL = 'rhea@host.test';
export const ATTENDEE = { email: 'kenji@guest.test', name: 'Kenji Guest', timezone: 'Asia/Tokyo' };

/** Monday 2026-03-02 00:00 UTC. */
export const REMIND_T0 = '2026-03-02T00:00:00.000Z';

export const RULES = [
  { minutes: 1440 },
  { minutes: 60, to: 'both' },
  { minutes: 30, relative_to: 'end', text: 'How did it go? Reply to this mail.' },
  { minutes: 10, to: 'host', via: 'webhook' },
];

export function reminderWorkspace(changes: { rules?: unknown[]; rheaReminders?: boolean } = {}): Record<string, unknown> {
  const common = { owner: 'rhea', future_limit_days: 365, slot_interval_minutes: 30, duration_minutes: 30 };
  return {
    organization: { name: 'Reminders' },
    users: [
      {
        id: RHEA,
        username: 'rhea',
        email: RHEA_EMAIL,
        name: 'Rhea Host',
        timezone: 'Europe/Berlin',
        role: 'owner',
        ...(changes.rheaReminders === false ? { reminders: false } : {}),
      },
      { id: SAM, username: 'sam', email: 'sam@host.test', name: 'Sam Host', timezone: 'America/New_York', role: 'user' },
    ],
    event_types: [
      { ...common, id: ET_REMIND.remind, slug: 'remind', name: 'Remind', reminders: changes.rules ?? RULES },
      { ...common, id: ET_REMIND.ask, slug: 'ask', name: 'Ask', requires_confirmation: true },
      { ...common, id: ET_REMIND.quiet, slug: 'quiet', name: 'Quiet', attendee_mail: false, reminders: RULES },
      {
        ...common,
        id: ET_REMIND.together,
        slug: 'together',
        name: 'Together',
        scheduling: 'collective',
        hosts: [{ username: 'rhea' }, { username: 'sam' }],
        reminders: [{ minutes: 60, to: 'host' }],
      },
    ],
    tokens: [
      {
        name: 'rhea',
        user: 'rhea',
        secret: RHEA_SECRET,
        scopes: [
          'bookings:read',
          'bookings:create',
          'bookings:cancel',
          'bookings:reschedule',
          'bookings:update',
          'series:read',
          'series:write',
        ],
      },
    ],
  };
}

export async function loadReminderWorkspace(
  deps: { store: Store; clock: ManualClock },
  changes: Parameters<typeof reminderWorkspace>[0] = {},
): Promise<Principal> {
  await loadWorkspace({ ...deps, ids: randomIds }, parseWorkspace(JSON.stringify(reminderWorkspace(changes))));
  return principalOf(deps, RHEA_SECRET);
}

/** What a suite does with bookings and the dispatcher, through `execute` as every front end does. */
export function reminderCalls(deps: ExecuteDeps, principal: () => Principal) {
  let key = 0;
  const next = () => `key-${++key}`;
  return {
    async book(start: string, eventTypeId: string = ET_REMIND.remind): Promise<string> {
      const { outcome } = await createBooking(deps, principal(), { event_type_id: eventTypeId, start, attendee: ATTENDEE }, next());
      const data = (outcome as { data?: { uid: string } }).data;
      if (data === undefined) throw new Error(`booking at ${start} failed: ${JSON.stringify(outcome)}`);
      return data.uid;
    },
    async move(uid: string, start: string): Promise<void> {
      const { outcome } = await rescheduleBooking(deps, principal(), uid, { start }, next());
      if ((outcome as { status: number }).status !== 200) throw new Error(`move failed: ${JSON.stringify(outcome)}`);
    },
    async cancel(uid: string): Promise<void> {
      const { outcome } = await cancelBooking(deps, principal(), uid, {}, next());
      if ((outcome as { status: number }).status !== 200) throw new Error(`cancel failed: ${JSON.stringify(outcome)}`);
    },
  };
}

/** Dispatches what is due now, with a mailer that keeps what it was handed. */
export async function dispatchDue(store: Store, clock: ManualClock, mailer = recordingMailer(), manageLinks?: ManageLinkWriter) {
  const report = await dispatchNotifications({ store, clock, ids: randomIds, mailer, manageLinks }, { limit: 1000, concurrency: 4 });
  return { report, mailer };
}

/** The reminder rows, by due time then recipient, with the moment and the rule's minutes they were queued for. */
export async function reminderRowsOf(store: Store) {
  const rows = await store.db
    .selectFrom('notifications')
    .select(['booking_uid', 'recipient', 'next_attempt_at', 'status', 'payload_json', 'sent_at'])
    .where('kind', '=', REMINDER_KIND)
    .execute();
  return rows
    .map((r) => {
      const payload = JSON.parse(r.payload_json) as { due_at: string; rule: { minutes: number } };
      return { ...r, due_at: payload.due_at, minutes: payload.rule.minutes };
    })
    .sort((a, b) => a.due_at.localeCompare(b.due_at) || a.recipient.localeCompare(b.recipient));
}

/** The store, failing each statement `fails` picks: a database that goes away for one table mid-pass. */
function failingStatements(store: Store, fails: (node: RootOperationNode) => boolean): Store {
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      if (fails(args.node)) throw new Error(`database lost at ${args.node.kind}`);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { ...store, db: store.db.withPlugin(plugin) };
}

/** The store, failing every read from a table `table` picks. */
export const failingReads = (store: Store, table: (name: string) => boolean) =>
  failingStatements(store, (node) => node.kind === 'SelectQueryNode' && tablesOf(node.from).some(table));

/** The table names a FROM names. */
function tablesOf(node: unknown): string[] {
  return [...JSON.stringify(node ?? null).matchAll(/"kind":"IdentifierNode","name":"([^"]+)"/g)].map((m) => m[1]!);
}
