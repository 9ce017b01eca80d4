import type { Command } from 'commander';
import { createElement as h } from 'react';
import { CliError } from '../backend/backend.js';
import { runCommand } from '../command-context.js';
import type { EventTypeItem, PersonItem } from './api-items.js';
import { listAll } from './list-all.js';
import { runApp } from './run-app.js';
import type { SeriesPreviewData } from './series-preview.js';
import { type SeriesCreated, SeriesWizard, type SeriesWizardApi, type WizardOutcome } from './series-wizard.js';

/** `schedule series create` with no flags, on a terminal: the wizard of series-wizard.ts on the command's backend. */
export async function seriesWizard(command: Command): Promise<void> {
  await runCommand(command, async (ctx) => {
    // Taken before drawing, so that --verbose prints it above the app rather than through it.
    const key = ctx.key();
    const api: SeriesWizardApi = {
      eventTypes: () => listAll<EventTypeItem>(ctx, 'list_event_types'),
      people: () => listAll<PersonItem>(ctx, 'list_people'),
      async preview(request) {
        try {
          return (await ctx.call('preview_series', { body: request })).data as SeriesPreviewData;
        } catch (error) {
          // No date free is what the preview is for: the wizard shows each date and why, instead of an error line.
          if (!(error instanceof CliError) || error.code !== 'no_dates_free') throw error;
          return { timezone: request.timezone, occurrences: [], skipped: error.details.skipped as SeriesPreviewData['skipped'] };
        }
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
    if (outcome.kind === 'nothing_free') throw new CliError('no_dates_free', 'None of the dates is free; no series was created.');
  });
}
