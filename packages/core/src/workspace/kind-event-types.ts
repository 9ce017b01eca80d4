import { eventTypeColumns, storedLocation } from '../event-types/event-type-rows.js';
import { storedPool } from '../event-types/pool.js';
import { storedQuestions } from '../event-types/questions.js';
import { archiveEventTypeRow, writeEventTypeFields } from '../event-types/write-event-type.js';
import { storedReminders } from '../reminders/reminder-rules.js';
import type { Entry, ResourceKind } from './resource-kind.js';

type Columns = ReturnType<typeof eventTypeColumns> & { readonly owner_user_id: string };

/**
 * An event type's entry from its columns, in the file's words: the file's
 * entries go through `eventTypeColumns` first (the API's writer's mapping),
 * so a default the writer fills in (the slot interval) is compared as stored.
 */
function eventTypeEntry(id: string, row: Columns, ownerName: string): Entry {
  return {
    key: id,
    label: `${ownerName}/${row.slug}`,
    fields: {
      id,
      owner: row.owner_user_id,
      slug: row.slug,
      name: row.name,
      description: row.description ?? null,
      duration_minutes: row.duration_minutes,
      status: row.status,
      recurring: row.recurring,
      allow_reschedule: row.allow_reschedule !== 0,
      requires_confirmation: row.requires_confirmation === 1,
      minimum_notice_minutes: row.minimum_notice_minutes,
      cancel_notice_minutes: row.cancel_notice_minutes,
      reschedule_notice_minutes: row.reschedule_notice_minutes,
      future_limit_days: row.future_limit_days,
      buffer_before_minutes: row.buffer_before_minutes,
      buffer_after_minutes: row.buffer_after_minutes,
      slot_interval_minutes: row.slot_interval_minutes,
      questions: storedQuestions(row.questions_json),
      location: storedLocation(row.location_json),
      reminders: storedReminders(row.reminders_json),
      attendee_mail: row.attendee_mail !== 0,
      visibility: row.visibility,
      // Shown only when set, so a file (and an export) without limits or seats reads as before they existed.
      // Likewise a team's scheduling and pool, only for a team type.
      ...(row.scheduling === 'single' ? {} : { scheduling: row.scheduling, hosts: storedPool(row.hosts_json) }),
      ...nonNull({
        max_bookings_per_day: row.max_bookings_per_day,
        max_bookings_per_week: row.max_bookings_per_week,
        seats: row.seats,
      }),
    },
  };
}

function nonNull(fields: Record<string, number | null | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
}

export const eventTypesKind: ResourceKind = {
  kind: 'event_type',
  sections: ['event_types'],
  userRefs: ['owner'],
  fromFile({ declared: { workspace }, users, eventTypeIds }) {
    return workspace.event_types.map((eventType, i) => {
      const owner = users.get(eventType.owner)!;
      const id = eventTypeIds[i]!;
      // The pool by user id, as it is stored (resolve-workspace.ts refused a file naming anyone unknown).
      const hosts = eventType.hosts.map((h) => ({ ...h, user_id: users.get(h.user_id ?? h.username!)!.id }));
      const resolved = { ...eventType, hosts };
      return {
        ...eventTypeEntry(id, { ...eventTypeColumns(resolved), owner_user_id: owner.id }, owner.username),
        at: `event_types[${i}]`,
        // The API's writer: one validation, one slug rule, the version bumped on a change.
        write: async (trx, ctx) => {
          // Stryker disable next-line ObjectLiteral: the dialect only chooses the host's row lock, seen by a concurrent writer on PostgreSQL
          await writeEventTypeFields(trx, { dialect: ctx.deps.store.dialect }, { id, ownerId: owner.id, now: ctx.now }, resolved);
        },
      };
    });
  },
  async read(trx, names) {
    // An archived type is deleted as far as a file is concerned: a file that names it again brings it back.
    const rows = await trx
      .selectFrom('event_types')
      .selectAll()
      .where('archived_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows
      .map((row) => eventTypeEntry(row.id, row, names.get(row.owner_user_id) ?? row.owner_user_id))
      .sort((a, b) => a.label.localeCompare(b.label));
  },
  exportAs: (event_types) => ({ event_types }),
  // Archived as `DELETE /v1/event-types/:id` does, never deleted: its bookings and series keep pointing at it.
  prune: {
    action: 'archive',
    // Archived types are not read, so none is ever listed as left to prune.
    done: () => false,
    async run(trx, ctx, entry) {
      await archiveEventTypeRow(trx, entry.key, ctx.now);
    },
  },
};
