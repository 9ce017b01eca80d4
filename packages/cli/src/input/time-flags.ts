import { CliError } from '../backend/backend.js';
import { type TimeKind, timeToSend, typedTimeProblem } from './typed-time.js';

/**
 * A time as typed for a flag. It is read only once the command runs,
 * because the zone it is read in (--tz) may come later on the line.
 */
export class TypedTime {
  constructor(
    readonly text: string,
    readonly kind: TimeKind,
  ) {}
}

/** The parser of an option that takes a time: `.option('--start <iso>', '…', typedTime)`. */
export function typedTime(text: string): TypedTime {
  return new TypedTime(text, 'instant');
}

/** The parser of an option that takes a date or a time (a list's bounds, a slots window). */
export function typedTimeOrDate(text: string): TypedTime {
  return new TypedTime(text, 'instant-or-date');
}

/** `--updated-since` from commander's `updatedSince`: the attribute names are the long flags in camel case. */
function flagOf(attribute: string): string {
  return `--${attribute.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * `options` with each typed time replaced by what is sent (typed-time.ts):
 * one without an offset read in `zone`. One that cannot be read is a usage
 * error naming the flag, before anything is called.
 */
export async function readTypedTimes<T extends Record<string, unknown>>(options: T, zone: string): Promise<T> {
  const typed = Object.entries(options).filter((entry): entry is [string, TypedTime] => entry[1] instanceof TypedTime);
  if (typed.length === 0) return options;
  const { wallClockToInstant } = await import('@schedule/core');
  const read = typed.map(([name, time]) => {
    const sent = timeToSend(time.text, zone, wallClockToInstant);
    const problem = typedTimeProblem(flagOf(name), time.text, sent, time.kind);
    if (problem !== undefined) throw new CliError('usage', problem);
    return [name, sent] as const;
  });
  return { ...options, ...Object.fromEntries(read) };
}
