import type { Command } from 'commander';
import { createElement as h } from 'react';
import { CliError } from '../backend/backend.js';
import { runCommand } from '../command-context.js';
import type { BookingItem, EventTypeItem } from './api-items.js';
import { type BookApi, BookApp, type BookOutcome } from './book-app.js';
import { listAll } from './list-all.js';
import { runApp } from './run-app.js';
import type { Slot } from './slot-grid-model.js';

/** `schedule book` on a terminal (its caller checked for one): the flow of book-app.ts on the command's backend. */
export async function book(command: Command): Promise<void> {
  await runCommand(command, async (ctx) => {
    const zone = ctx.style.zone;
    // Taken before drawing, so that --verbose prints it above the app rather than through it.
    const key = ctx.key();
    const api: BookApi = {
      eventTypes: () => listAll<EventTypeItem>(ctx, 'list_event_types'),
      async slots(eventType, week) {
        const query = { event_type_id: eventType.id, start: week.start, end: week.end, timezone: zone };
        return ((await ctx.call('list_slots', { query })).data as { slots: Slot[] }).slots;
      },
      async book({ eventType, start, email, name, responses }) {
        const attendee = { email, ...(name ? { name } : {}), timezone: zone };
        const body = { event_type_id: eventType.id, start, timezone: zone, attendee, responses };
        return (await ctx.call('create_booking', { body, idempotencyKey: key })).data as BookingItem;
      },
    };
    const outcome = await runApp<BookOutcome>(
      (done) => h(BookApp, { api, zone, nowMs: Date.now(), color: ctx.style.color, onDone: done }),
      { kind: 'canceled' },
    );
    if (outcome.kind === 'failed') throw outcome.error;
    if (outcome.kind === 'canceled') throw new CliError('canceled', 'Nothing was booked.');
  });
}
