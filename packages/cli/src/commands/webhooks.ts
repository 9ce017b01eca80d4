import { EVENT_NAMES } from '@schedule/core';
import type { Command } from 'commander';
import { defined, type RunContext, runCommand, show, showWrite, withCommonOptions } from '../command-context.js';
import { ifMatchVersion } from '../input/if-match-flag.js';
import {
  deliveryQueuedText,
  webhookCreatedText,
  webhookDeletedText,
  webhookRotatedText,
  webhookUpdatedText,
} from '../output/confirmations.js';
import { confirmationLine, renderObject } from '../output/render.js';
import { DELIVERY_COLUMNS, WEBHOOK_COLUMNS } from './columns.js';

/** The event names, from core's one list, in lines of at most 110 characters for the help text. */
const EVENTS_HELP = `Events: ${EVENT_NAMES.join(', ')} (no wildcard).`.split(' ').reduce<string[]>((lines, word) => {
  const last = lines.at(-1);
  if (last !== undefined && last.length + 1 + word.length <= 110) lines[lines.length - 1] = `${last} ${word}`;
  else lines.push(word);
  return lines;
}, []);

import { listCommand, withPaging } from './list-pages.js';

/** `--events booking.created,booking.canceled`: the names as a list, for the API to check. */
const eventNames = (value: string) =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

/** One object as key and value lines (the API's data with --json). */
function showObject(ctx: RunContext, data: unknown): void {
  show(ctx, data, () => renderObject(data as Record<string, unknown>, ctx.style));
}

/** A write's answer: one line on a terminal (`say`), the object's lines piped (secret included), the data with --json. */
function showWebhookWrite<T>(ctx: RunContext, data: unknown, say: (data: T) => string): void {
  showWrite(
    ctx,
    data,
    () => confirmationLine(ctx.style, say(data as T)),
    () => renderObject(data as Record<string, unknown>, ctx.style),
  );
}

/** The version to send as If-Match: `--if-match`, else the version read just now. */
async function webhookIfMatch(ctx: RunContext, id: string): Promise<string> {
  if (ctx.options.ifMatch !== undefined) return String(ctx.options.ifMatch);
  const current = await ctx.call('get_webhook', { params: { id } });
  return String((current.data as { version: number }).version);
}

/** `--description TEXT` sets it, `--no-description` removes it (null), neither leaves it. */
function descriptionOf(value: string | false | undefined): string | null | undefined {
  return value === false ? null : value;
}

const KEY_OPTION = ['--idempotency-key <key>', 'the key (default: a new one per invocation)'] as const;

/** `schedule webhooks …`: one command per webhook endpoint (docs/webhooks.md). */
export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('Manage your webhooks: create, list, change, pause, delete, rotate secrets, see and redeliver deliveries, test.');

  withCommonOptions(withPaging(webhooks.command('list')).description('List your webhooks, newest first.'))
    .addHelpText('after', '\nExample:\n  schedule webhooks list --json')
    .action((_, command: Command) => runCommand(command, (ctx) => listCommand(ctx, 'list_webhooks', {}, WEBHOOK_COLUMNS)));

  withCommonOptions(webhooks.command('get <id>').description('Show one webhook and its version (never its secret).'))
    .addHelpText('after', '\nExample:\n  schedule webhooks get 5b1e9c1a-7d2f-4c3b-9a8e-2f4d6b8c0e11')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => showObject(ctx, (await ctx.call('get_webhook', { params: { id } })).data)),
    );

  withCommonOptions(
    webhooks
      .command('create')
      .description('Send events to a URL as signed POSTs. Prints the secret, which is shown only this once.')
      .requiredOption('--url <url>', 'where to POST: http:// or https://')
      .requiredOption('--events <list>', 'comma-separated event names, such as booking.created,booking.canceled', eventNames)
      .option('--description <text>', 'a note for people')
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      [
        '',
        ...EVENTS_HELP,
        '',
        'Example:',
        '  schedule webhooks create --url https://crm.example.com/hooks --events booking.created,booking.canceled',
      ].join('\n'),
    )
    .action((_, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({ url: o.url, events: o.events, description: o.description });
        showWebhookWrite(ctx, (await ctx.call('create_webhook', { body, idempotencyKey: ctx.key() })).data, webhookCreatedText);
      }),
    );

  withCommonOptions(
    webhooks
      .command('update <id>')
      .description('Change the URL, events or description, or pause (--status paused) and resume (--status active).')
      .option('--url <url>', 'the new target')
      .option('--events <list>', 'the new comma-separated event names (replaces the list)', eventNames)
      .option('--description <text>', 'a note for people')
      .option('--no-description', 'remove the note')
      .option('--status <status>', 'paused (events meanwhile are missed) or active (resumes from new events)')
      .option('--if-match <version>', 'the version you read (default: read it now)', ifMatchVersion)
      .option(...KEY_OPTION),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  schedule webhooks update <id> --status paused\n  schedule webhooks update <id> --events booking.created',
    )
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const o = ctx.options;
        const body = defined({ url: o.url, events: o.events, description: descriptionOf(o.description), status: o.status });
        const ifMatch = await webhookIfMatch(ctx, id);
        const { data } = await ctx.call('update_webhook', { params: { id }, body, idempotencyKey: ctx.key(), ifMatch });
        showWebhookWrite(ctx, data, webhookUpdatedText);
      }),
    );

  withCommonOptions(
    webhooks
      .command('delete <id>')
      .description('Delete a webhook and its delivery history.')
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule webhooks delete <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) =>
        showWebhookWrite(ctx, (await ctx.call('delete_webhook', { params: { id }, idempotencyKey: ctx.key() })).data, webhookDeletedText),
      ),
    );

  withCommonOptions(
    webhooks
      .command('rotate-secret <id>')
      .description('Give a webhook a new secret, printed only now; the previous one also signs for 24 hours.')
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule webhooks rotate-secret <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) =>
        showWebhookWrite(
          ctx,
          (await ctx.call('rotate_webhook_secret', { params: { id }, idempotencyKey: ctx.key() })).data,
          webhookRotatedText,
        ),
      ),
    );

  withCommonOptions(
    withPaging(webhooks.command('deliveries <id>'))
      .description("List a webhook's recent deliveries, newest first.")
      .option('--status <list>', 'comma-separated: pending, succeeded, failed'),
  )
    .addHelpText('after', '\nExample:\n  schedule webhooks deliveries <id> --status failed')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        // The list's path names the webhook; listCommand pages its query.
        const paged: RunContext = { ...ctx, call: (operation, input) => ctx.call(operation, { ...input, params: { id } }) };
        await listCommand(paged, 'list_webhook_deliveries', defined({ status: ctx.options.status }), DELIVERY_COLUMNS);
      }),
    );

  withCommonOptions(
    webhooks
      .command('redeliver <id> <delivery-id>')
      .description('Send one delivery again now (same webhook-id, so a receiver that deduplicates may skip it).')
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule webhooks redeliver <id> <delivery-id>')
    .action((id: string, deliveryId: string, _, command: Command) =>
      runCommand(command, async (ctx) => {
        const input = { params: { id, delivery_id: deliveryId }, idempotencyKey: ctx.key() };
        showWebhookWrite(ctx, (await ctx.call('redeliver_webhook_delivery', input)).data, deliveryQueuedText);
      }),
    );

  withCommonOptions(
    webhooks
      .command('test <id>')
      .description('Queue a webhook.test event to this webhook only.')
      .option(...KEY_OPTION),
  )
    .addHelpText('after', '\nExample:\n  schedule webhooks test <id>')
    .action((id: string, _, command: Command) =>
      runCommand(command, async (ctx) =>
        showWebhookWrite(ctx, (await ctx.call('test_webhook', { params: { id }, idempotencyKey: ctx.key() })).data, deliveryQueuedText),
      ),
    );
}
