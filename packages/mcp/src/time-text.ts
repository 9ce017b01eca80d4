import { localTime } from '@schedule/core';

// Every instant a model reads in a tool's text carries the local time it
// stands for, with the zone's name and offset, for the host and, when it is
// known, the attendee: models that convert UTC themselves get the hour or
// the day wrong across zones and DST changes. Weekdays and dates are always
// spelled out; nothing is relative ("tomorrow" depends on when it is read).

/** Whose zones the text of one answer is read in. */
export interface Zones {
  /** The caller's own zone: the host's when nothing else names one. */
  readonly caller: string;
  /** Hosts' zones by user id, read for the bookings of the answer. */
  readonly hosts: ReadonlyMap<string, string>;
}

type Item = Record<string, any>;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether a string is an instant the API answered. */
export function isInstant(value: unknown): value is string {
  return typeof value === 'string' && INSTANT.test(value);
}

/** A resource's reader zones: its host's (or its own `timezone`'s, or the caller's) and its attendee's if it names one. */
export function readersOf(item: Item, zones: Zones): { host: string; attendee: string | undefined; attendeeName: string | undefined } {
  const host = zones.hosts.get(item.host?.user_id) ?? (typeof item.timezone === 'string' ? item.timezone : zones.caller);
  const attendee = item.attendees?.[0] ?? item.attendee;
  return { host, attendee: typeof attendee?.timezone === 'string' ? attendee.timezone : undefined, attendeeName: attendee?.email };
}

/** `<instant> = <host's local time> for the host[; <attendee's> for the attendee]`. */
export function inBothZones(
  instant: string,
  host: string,
  attendee: string | undefined,
  names: { host?: string; attendee?: string } = {},
): string {
  const ms = Date.parse(instant);
  const hostTime = localTime(ms, host);
  const forHost = names.host ? ` for ${names.host}` : '';
  const attendeeName = names.attendee ?? 'the attendee';
  if (attendee === undefined) return `${instant} = ${hostTime}${forHost}`;
  if (attendee === host) return `${instant} = ${hostTime} for ${names.host ?? 'the host'} and ${attendeeName}`;
  return `${instant} = ${hostTime}${forHost}; ${localTime(ms, attendee)} for ${attendeeName}`;
}

/** A value as JSON text with every instant in it read in its resource's zones. */
export function annotatedJson(value: unknown, zones: Zones): string {
  const walk = (node: unknown, readers: ReturnType<typeof readersOf>): unknown => {
    if (isInstant(node)) return inBothZones(node, readers.host, readers.attendee);
    if (Array.isArray(node)) return node.map((child) => walk(child, readers));
    if (typeof node !== 'object' || node === null) return node;
    const own = readersOf(node as Item, zones);
    const mine = (node as Item).host || (node as Item).attendees || (node as Item).timezone ? own : readers;
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child, mine)]));
  };
  return JSON.stringify(walk(value, { host: zones.caller, attendee: undefined, attendeeName: undefined }));
}
