import { Option } from 'commander';
import { CliError } from '../backend/backend.js';
import type { RunContext } from '../command-context.js';
import { isUserId, personNamed } from './host-flag.js';

// One rule for every command that names an event type (bookings create,
// slots list|check, series create): `--event-type <id>` alone, or
// `--event-slug <slug>` with its owner, `--owner` (`--username`, the API's
// name, works too). `--host` is who hosts the meetings. A booking's host is
// its event type's owner (docs/api/choices.md), so where the command books
// or lists an event type's own times, `--host` names the owner as well; a
// series is hosted by anyone the caller may act for, and its event type is
// the host's own unless `--owner` names another's. The API would take an
// id and an owner together and ignore the owner: the CLI refuses that
// instead of booking someone the user did not name.

/** What `--host` is to the event type: its owner (bookings create, slots), or by default its owner (series create). */
export type HostRole = 'is-owner' | 'owner-by-default';

/** The event type as the API takes it: by id, or by its owner's username and its slug. */
export type EventTypeFields = { readonly event_type_id: string } | { readonly username: string; readonly event_slug: string };

const NONE = 'Name the event type: --event-type <id>, or --event-slug <slug> with --owner <username>.';

interface EventTypeFlags {
  readonly eventType?: string;
  readonly eventSlug?: string;
  readonly owner?: string;
  readonly username?: string;
  readonly host?: string;
}

/** The event type the command's flags name, refusing flags that contradict or say nothing; an owner's id is looked up. */
export async function eventTypeOf(ctx: RunContext, host: HostRole): Promise<EventTypeFields> {
  const o = ctx.options as EventTypeFlags;
  const named: (readonly [flag: string, text: string | undefined])[] = [
    ...(host === 'is-owner' ? [['--host', o.host] as const] : []),
    ['--owner', o.owner],
    ['--username', o.username],
  ];
  const owners = named.filter((entry): entry is readonly [flag: string, text: string] => entry[1] !== undefined);
  if (o.eventType !== undefined) {
    if (host === 'is-owner' && o.host !== undefined) {
      throw new CliError('usage', '--event-type names the event type and so its owner, who hosts the meeting; leave out --host.');
    }
    const extra = [...owners.map(([flag]) => flag), ...(o.eventSlug !== undefined ? ['--event-slug'] : [])][0];
    if (extra !== undefined) throw new CliError('usage', `--event-type names the event type on its own; leave out ${extra}.`);
    return { event_type_id: o.eventType };
  }
  const [first, second] = owners;
  if (first && second) throw new CliError('usage', `${first[0]} and ${second[0]} both name the owner; give one of them.`);
  if (o.eventSlug === undefined) throw new CliError('usage', NONE);
  const owner: readonly [flag: string, text: string] | undefined =
    first ?? (host === 'owner-by-default' && o.host !== undefined ? ['--host', o.host] : undefined);
  if (!owner) throw new CliError('usage', `--event-slug ${o.eventSlug}: whose event type is it? Add --owner <username>.`);
  const [flag, text] = owner;
  const username = isUserId(text) ? (await personNamed(ctx, flag, text)).username : text;
  return { username, event_slug: o.eventSlug };
}

/** `--username`, the API's name for the owner: it still works, and --help and completion show `--owner` only. */
export function usernameOption(): Option {
  return new Option('--username <name>', "the event type's owner, by username: the same as --owner").hideHelp();
}
