import { storedQuestions } from '../event-types/questions.js';
import type { Entry, ResourceKind } from './resource-kind.js';
import { eventTypeRow } from './workspace-rows.js';
import { upsertChanged } from './workspace-writes.js';

type Row = ReturnType<typeof eventTypeRow>;

/**
 * An event type's entry from its row, in the file's words: the file's
 * entries go through `eventTypeRow` first, so a default the loader fills in
 * (the slot interval) is compared as stored.
 */
function eventTypeEntry(id: string, row: Row, ownerName: string): Entry {
  return {
    key: id,
    label: `${ownerName}/${row.slug}`,
    fields: {
      id,
      owner: row.owner_user_id,
      slug: row.slug,
      name: row.name,
      duration_minutes: row.duration_minutes,
      status: row.status,
      recurring: row.recurring,
      allow_reschedule: row.allow_reschedule !== 0,
      minimum_notice_minutes: row.minimum_notice_minutes,
      future_limit_days: row.future_limit_days,
      buffer_before_minutes: row.buffer_before_minutes,
      buffer_after_minutes: row.buffer_after_minutes,
      slot_interval_minutes: row.slot_interval_minutes,
      questions: storedQuestions(row.questions_json),
      attendee_mail: row.attendee_mail !== 0,
    },
  };
}

export const eventTypesKind: ResourceKind = {
  kind: 'event_type',
  sections: ['event_types'],
  userRefs: ['owner'],
  fromFile({ declared: { workspace }, users, eventTypeIds }) {
    return workspace.event_types.map((eventType, i) => {
      const owner = users.get(eventType.owner)!;
      const id = eventTypeIds[i]!;
      const row = eventTypeRow(eventType, owner.id);
      return {
        ...eventTypeEntry(id, row, owner.username),
        at: `event_types[${i}]`,
        write: (trx, ctx) => upsertChanged(trx, 'event_types', id, row, ctx.now),
      };
    });
  },
  async read(trx, names) {
    const rows = await trx.selectFrom('event_types').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows
      .map(({ id, created_at: _c, updated_at: _u, ...row }) => eventTypeEntry(id, row, names.get(row.owner_user_id) ?? row.owner_user_id))
      .sort((a, b) => a.label.localeCompare(b.label));
  },
  exportAs: (event_types) => ({ event_types }),
  // Switched off, never deleted: its bookings and series keep pointing at it (docs/workspace.md).
  prune: {
    action: 'switch_off',
    done: (entry) => entry.fields.status === 'off',
    async run(trx, ctx, entry) {
      await trx.updateTable('event_types').set({ status: 'off', updated_at: ctx.now }).where('id', '=', entry.key).execute();
    },
  },
};
