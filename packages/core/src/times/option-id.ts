import { isUuid } from '../ids.js';
import { parseInstant, toTimestamp } from '../time.js';

// The id of a find_times option, written by find-times.ts and read by
// book-time.ts: a held option's is its hold's id (a UUID); an unheld one's
// names the event type and the start, `<event type id>@<start>`.

/** The id of an option that is not held. */
export function unheldOptionId(eventTypeId: string, startMs: number): string {
  return `${eventTypeId}@${toTimestamp(startMs)}`;
}

const UNHELD = /^([0-9a-fA-F-]{36})@(.+)$/;

/** What an option id names: its hold, an event type and start, or nothing (`undefined`). */
export function readOptionId(id: string): { holdId: string } | { eventTypeId: string; start: string } | undefined {
  if (isUuid(id)) return { holdId: id.toLowerCase() };
  const unheld = UNHELD.exec(id);
  if (!unheld || !isUuid(unheld[1]!) || parseInstant(unheld[2]!) === undefined) return undefined;
  return { eventTypeId: unheld[1]!, start: unheld[2]! };
}
