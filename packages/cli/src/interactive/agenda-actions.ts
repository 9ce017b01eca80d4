import { randomUUID } from 'node:crypto';
import { createElement as h } from 'react';
import type { RunContext } from '../command-context.js';
import { agendaQuery } from './agenda.js';
import { type AgendaApi, AgendaApp, type ChangedBooking } from './agenda-app.js';
import type { BookingItem } from './api-items.js';
import { listAll } from './list-all.js';
import { runApp } from './run-app.js';
import type { Slot } from './slot-grid-model.js';

// `schedule agenda` where a person can act on it: the app of agenda-app.ts
// on the command's backend. Loaded only then, so the printed agenda never
// loads the app.

/** The agenda on a terminal until q: cancel or reschedule meetings (agenda-app.ts), each change with an Idempotency-Key of its own. */
export async function actOnAgenda(
  ctx: RunContext,
  view: { bookings: readonly BookingItem[]; zone: string; nowMs: number; span: number; showHost: boolean },
): Promise<void> {
  const { zone } = view;
  const changed = async (operation: 'cancel_booking' | 'reschedule_booking', uid: string, body: Record<string, unknown>) =>
    (await ctx.call(operation, { params: { uid }, body, idempotencyKey: randomUUID() })).data as ChangedBooking;
  const api: AgendaApi = {
    bookings: () => listAll<BookingItem>(ctx, 'list_bookings', agendaQuery(Date.now(), view.span)),
    async slots(booking, week) {
      const query = { event_type_id: booking.event_type_id, start: week.start, end: week.end, timezone: zone };
      return ((await ctx.call('list_slots', { query })).data as { slots: Slot[] }).slots;
    },
    cancel: (booking, reason) => changed('cancel_booking', booking.uid, reason === undefined ? {} : { reason }),
    reschedule: (booking, start) => changed('reschedule_booking', booking.uid, { start }),
  };
  await runApp<void>((done) => h(AgendaApp, { ...view, api, color: ctx.style.color, onDone: done }), undefined);
}
