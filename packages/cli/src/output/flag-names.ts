/**
 * The CLI flag that carries each API body field, query parameter or header:
 * one table, so that an error the API words about `event_type_id` reaches a
 * CLI user as `--event-type`, the name they typed. A field nested below one
 * of these (`guests.1.email`) is named by its top flag.
 */
export const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  start: '--start',
  end: '--end',
  start_date: '--from',
  end_date: '--to',
  updated_since: '--updated-since',
  host_user_id: '--host',
  event_type_id: '--event-type',
  username: '--username',
  event_slug: '--event-slug',
  series_id: '--series',
  attendee_email: '--attendee',
  attendee_name: '--attendee-name',
  'attendee.email': '--attendee-email',
  'attendee.name': '--attendee-name',
  'attendee.timezone': '--attendee-timezone',
  'attendee.phone': '--phone',
  status: '--status',
  sort: '--sort',
  limit: '--limit',
  cursor: '--cursor',
  timezone: '--timezone',
  guests: '--guest',
  responses: '--responses',
  metadata: '--metadata',
  reason: '--reason',
  frequency: '--frequency',
  weekdays: '--weekdays',
  interval_weeks: '--interval-weeks',
  time: '--time',
  starts_on: '--starts-on',
  count: '--count',
  location_url: '--location-url',
  notify_invitee: '--notify',
  client_name: '--name',
  redirect_uris: '--redirect-uri',
  url: '--url',
  events: '--events',
  description: '--description',
  'Idempotency-Key': '--idempotency-key',
  'If-Match': '--if-match',
};

const escapeRegExp = (name: string) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
// Longest first, so `attendee.email` wins over a shorter name inside it.
const NAMES = Object.keys(FLAG_OF_FIELD).sort((a, b) => b.length - a.length);
const FIELD = new RegExp(`(?<![\\w.-])(${NAMES.map(escapeRegExp).join('|')})((?:\\.[\\w]+)*)(?![\\w-])`, 'g');

const ARTICLE_BEFORE = /\b(?:the|a|an|this|that) $/i;

/** A clause that names its field first (`start: must …`, `Query parameter start: must …`): the rest is a rule, in plain words. */
const FIELD_FIRST = /^(?:Query parameter )?([\w.-]+): /;

function clauseInFlagTerms(clause: string): string {
  const first = FIELD_FIRST.exec(clause);
  if (first) {
    const name = first[1]!.replace(FIELD, (_, top: string) => FLAG_OF_FIELD[top]!);
    return name === first[1] ? clause : `${name}: ${clause.slice(first[0].length)}`;
  }
  // A sentence of core's own about fields names them among plain words ("end must be after start");
  // one after an article is a plain word itself ("The cursor is not valid").
  return clause.replace(FIELD, (whole, name: string, _nested: string, at: number) =>
    ARTICLE_BEFORE.test(clause.slice(0, at)) ? whole : FLAG_OF_FIELD[name]!,
  );
}

/**
 * An API error message in the CLI's words: each field it names becomes the
 * flag that sends it (`count must be 1 to 42.` → `--count must be 1 to 42.`).
 * Only messages about fields (their details carry `fields` or `param`) are
 * reworded, and in a `field: rule` clause only the field, so that a word
 * such as "time" in "an IANA time zone name" stays a word.
 */
export function inFlagTerms(message: string, details: Readonly<Record<string, unknown>>): string {
  if (!('fields' in details) && !('param' in details)) return message;
  // Body validation joins one clause per bad field with "; ".
  return message.split('; ').map(clauseInFlagTerms).join('; ');
}
