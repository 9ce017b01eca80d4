import { CliError } from '../backend/backend.js';
import type { RunContext } from '../command-context.js';
import type { BookingItem } from '../interactive/api-items.js';

// A booking named by the start of its uid, as git names a commit by the
// start of its id. The API resolves it (`GET /v1/bookings?uid_prefix=`), so
// it works the same embedded and remote, sees only what the caller may see,
// and costs one page however many bookings there are.

const WHOLE_UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UID_START = /^[0-9a-f][0-9a-f-]{0,35}$/i;

/** Fewer characters than git asks of a short commit id would name too many bookings to be worth a call. */
export const MIN_SHORT_UID = 4;

/** How many candidates an ambiguous short uid lists: one page, enough to pick more characters from. */
export const SHOWN_CANDIDATES = 10;

/** The argument's help: `bookings get <uid>`. */
export const UID_ARGUMENT = `the booking's uid, or a unique start of it (at least ${MIN_SHORT_UID} characters)`;

/** The error of a short uid that starts several bookings: each on its own line, with its start, status and title. */
export function ambiguousUid(typed: string, candidates: readonly BookingItem[], more: boolean): CliError {
  const lines = candidates.map((b) => `  ${b.uid}  ${b.start_at}  ${b.status}  ${b.title}`);
  return new CliError(
    'ambiguous_uid',
    [`short uid ${typed} is ambiguous; give more of it. It starts these bookings:`, ...lines, ...(more ? ['  and more'] : [])].join('\n'),
    { uid_prefix: typed, candidates: candidates.map((b) => b.uid) },
  );
}

/**
 * The uid a typed one stands for. A whole uid, or text that is no start of
 * one, goes to the API as typed (which answers booking_not_found for what it
 * does not know). A start of one is looked up among the bookings the caller
 * can see: exactly one is it; none is booking_not_found, the same for a
 * booking the caller may not see as for none at all.
 */
export async function bookingUidOf(ctx: RunContext, typed: string): Promise<string> {
  if (WHOLE_UID.test(typed) || !UID_START.test(typed)) return typed;
  if (typed.length < MIN_SHORT_UID) {
    throw new CliError('usage', `${typed} is too short to pick a booking by; give at least ${MIN_SHORT_UID} characters of its uid.`);
  }
  const query = { uid_prefix: typed, sort: 'start_at_asc', limit: SHOWN_CANDIDATES };
  const { data, page } = await ctx.call('list_bookings', { query });
  const found = data as BookingItem[];
  const more = page?.hasMore === true;
  if (found.length === 1 && !more) return found[0]!.uid;
  if (found.length === 0) throw new CliError('booking_not_found', `No booking you can see has a uid starting with ${typed}.`);
  throw ambiguousUid(typed, found, more);
}
