import type { Command } from 'commander';
import { createElement as h } from 'react';
import { CliError } from '../backend/backend.js';
import { runCommand } from '../command-context.js';
import type { EventTypeItem, PersonItem } from './api-items.js';
import { listAll } from './list-all.js';
import { runApp } from './run-app.js';
import type { Verdict } from './series-preview.js';
import { type SeriesCreated, SeriesWizard, type SeriesWizardApi, type WizardOutcome } from './series-wizard.js';

/** `schedule series create` with no flags, on a terminal: the wizard of series-wizard.ts on the command's backend. */
export async function seriesWizard(command: Command): Promise<void> {
  await runCommand(command, async (ctx) => {
    // Taken before drawing, so that --verbose prints it above the app rather than through it.
    const key = ctx.key();
    const api: SeriesWizardApi = {
      eventTypes: () => listAll<EventTypeItem>(ctx, 'list_event_types'),
      people: () => listAll<PersonItem>(ctx, 'list_people'),
      async check(eventType, start) {
        return (await ctx.call('check_slot', { query: { event_type_id: eventType.id, start } })).data as Verdict;
      },
      async create(request) {
        return (await ctx.call('create_series', { body: request, idempotencyKey: key })).data as SeriesCreated;
      },
    };
    const outcome = await runApp<WizardOutcome>(
      (done) => h(SeriesWizard, { api, nowMs: Date.now(), color: ctx.style.color, onDone: done }),
      {
        kind: 'canceled',
      },
    );
    if (outcome.kind === 'failed') throw outcome.error;
    if (outcome.kind === 'canceled') throw new CliError('canceled', 'No series was created.');
  });
}
