import { timeToSend } from './typed-time.js';

/**
 * A time as typed for a flag. It is read only once the command runs,
 * because the zone it is read in (--tz) may come later on the line.
 */
export class TypedTime {
  constructor(readonly text: string) {}
}

/** The parser of every option that takes a time: `.option('--start <iso>', '…', typedTime)`. */
export function typedTime(text: string): TypedTime {
  return new TypedTime(text);
}

/** `options` with each typed time replaced by what is sent (typed-time.ts): one without an offset read in `zone`. */
export async function readTypedTimes<T extends Record<string, unknown>>(options: T, zone: string): Promise<T> {
  const typed = Object.entries(options).filter((entry): entry is [string, TypedTime] => entry[1] instanceof TypedTime);
  if (typed.length === 0) return options;
  const { wallClockToInstant } = await import('@schedule/core');
  return { ...options, ...Object.fromEntries(typed.map(([name, time]) => [name, timeToSend(time.text, zone, wallClockToInstant)])) };
}
