import { loadWorkingHours } from '../availability/working-hours-store.js';
import type { Calendar } from '../event-types/calendar.js';
import type { Schedule } from '../event-types/schedule.js';
import type { Entry, ResourceKind } from './resource-kind.js';
import { addedThroughApi, userRow } from './workspace-rows.js';
import { storedCalendars, upsertChanged } from './workspace-writes.js';

interface UserFields {
  id: string;
  username: string;
  email: string;
  name: string;
  timezone: string;
  role: string;
  manages: readonly string[];
  schedule: Schedule | null;
  calendars: readonly Calendar[];
  reminders: boolean;
}

/** One field list for the file's users and the stored ones, so both are compared field by field. */
const userEntry = (f: UserFields): Entry => ({ key: f.id, label: f.username, fields: { ...f } });

export const usersKind: ResourceKind = {
  kind: 'user',
  sections: ['users'],
  userRefs: ['manages'],
  fromFile({ declared: { workspace }, users }) {
    return workspace.users.map((user, i) => {
      const ref = users.get(user.username)!;
      return {
        ...userEntry({
          id: ref.id,
          username: user.username,
          email: user.email,
          name: ref.name,
          timezone: user.timezone,
          role: user.role,
          manages: user.manages.map((m) => users.get(m)!.id),
          schedule: user.schedule ?? null,
          calendars: user.calendars,
          reminders: user.reminders,
        }),
        at: `users[${i}]`,
        async write(trx, ctx) {
          const row = userRow(user, users, await storedCalendars(trx, ctx.deps.store.dialect, ref.id));
          await upsertChanged(trx, 'users', ref.id, row, ctx.now);
          // The working hours go through the API's writer: versioned, so an If-Match sees the file's change.
          await loadWorkingHours(trx, ctx.deps, ref.id, user.schedule ?? null);
        },
      };
    });
  },
  async read(trx) {
    const rows = await trx.selectFrom('users').selectAll().orderBy('username').execute();
    return rows.map((row) =>
      userEntry({
        id: row.id,
        username: row.username,
        email: row.email,
        name: row.name,
        timezone: row.timezone,
        role: row.role,
        manages: JSON.parse(row.manages_json) as string[],
        // Stryker disable next-line ConditionalExpression: JSON.parse(null) is null too; the test says what a missing schedule is
        schedule: row.schedule_json === null ? null : (JSON.parse(row.schedule_json) as Schedule),
        calendars: (JSON.parse(row.calendars_json) as Calendar[]).filter((c) => !addedThroughApi(c)),
        reminders: row.reminders !== 0,
      }),
    );
  },
  // The reminders switch is exported only when off, so an export reads as before reminders existed.
  exportAs: (users) => ({ users: users.map(({ reminders, ...user }) => (reminders === false ? { ...user, reminders } : user)) }),
  // People are deactivated through the API (docs/api/people.md), not by a file: listed, never changed.
  prune: { action: 'not_supported' },
};
