/**
 * The CLI flags that carry each API body field, query parameter or header:
 * one table, so that an error the API words about `event_type_id` reaches a
 * CLI user as `--event-type`, the name they typed. A field nested below one
 * of these (`guests.1.email`) is named by its top flag. Where commands send
 * one field from different flags (`username`: the event type's owner in
 * `bookings create`, the account's name in `calendars add`), the flags are
 * listed in order of preference, and each command's error names the one
 * it has (flagsOfCommand). A password has no entry: it is asked at a
 * terminal as often as given by a flag, and its errors say "password".
 */
export const FLAGS_OF_FIELD: Readonly<Record<string, readonly string[]>> = {
  start: ['--start'],
  end: ['--end'],
  // `schedule time-off` sends whole days from --date and --until.
  start_date: ['--from', '--date'],
  end_date: ['--to', '--until'],
  updated_since: ['--updated-since'],
  host_user_id: ['--host', '--team-host', '--to'],
  host_username: ['--host'],
  event_type_id: ['--event-type'],
  username: ['--owner', '--username', '--host'],
  event_slug: ['--event-slug'],
  series_id: ['--series'],
  attendee_email: ['--attendee'],
  attendee_name: ['--attendee-name'],
  'attendee.email': ['--attendee-email'],
  'attendee.name': ['--attendee-name'],
  'attendee.timezone': ['--attendee-timezone'],
  'attendee.phone': ['--phone'],
  status: ['--status'],
  sort: ['--sort'],
  limit: ['--limit'],
  cursor: ['--cursor'],
  timezone: ['--timezone'],
  guests: ['--guest'],
  responses: ['--responses'],
  metadata: ['--metadata'],
  reason: ['--reason'],
  frequency: ['--frequency'],
  weekdays: ['--weekdays'],
  interval_weeks: ['--interval-weeks'],
  time: ['--time'],
  starts_on: ['--starts-on'],
  count: ['--count'],
  // `schedule times`: its `host`, `from`, `to` and `hold` are words of every sentence too, so they are not rewritten.
  event_type: ['--event-type'],
  attendee_timezone: ['--attendee-timezone'],
  part_of_day: ['--part-of-day'],
  option_id: ['<option-id>'],
  location_url: ['--location-url'],
  notify_invitee: ['--notify', '--no-notify'],
  client_name: ['--name'],
  redirect_uris: ['--redirect-uri'],
  url: ['--url'],
  events: ['--events'],
  description: ['--description'],
  busy_calendars: ['--busy'],
  book_into: ['--book-into'],
  user: ['--user'],
  user_id: ['--user'],
  intervals: ['--hours'],
  booking_uid: ['--booking'],
  scopes: ['--scope'],
  duration_minutes: ['--duration'],
  slot_interval_minutes: ['--interval'],
  buffer_before_minutes: ['--buffer-before'],
  buffer_after_minutes: ['--buffer-after'],
  minimum_notice_minutes: ['--notice'],
  cancel_notice_minutes: ['--cancel-notice'],
  reschedule_notice_minutes: ['--reschedule-notice'],
  override_notice: ['--override-notice'],
  future_limit_days: ['--future-limit'],
  allow_reschedule: ['--allow-reschedule'],
  requires_confirmation: ['--requires-confirmation'],
  attendee_mail: ['--attendee-mail'],
  max_bookings_per_day: ['--max-per-day'],
  max_bookings_per_week: ['--max-per-week'],
  seats: ['--seats'],
  scheduling: ['--scheduling'],
  hosts: ['--hosts'],
  'Idempotency-Key': ['--idempotency-key'],
  'If-Match': ['--if-match'],
};

/** The flag an error names for a top-level field, or undefined for a field no flag sends. */
export type FlagOf = (field: string) => string | undefined;

/** Without a command to ask: each field's first flag. */
export const firstFlagOf: FlagOf = (field) => FLAGS_OF_FIELD[field]?.[0];

/** What flagsOfCommand reads of a commander command. */
export interface CommandFlags {
  readonly options: readonly { readonly long?: string | undefined; attributeName(): string }[];
  getOptionValueSource(key: string): string | undefined;
}

/** The flags of one command: of a field's flags, the one the user typed, else the first the command has. */
export function flagsOfCommand(command: CommandFlags): FlagOf {
  const option = (flag: string) => command.options.find((o) => o.long === flag);
  const typed = (flag: string) => {
    const found = option(flag);
    return found !== undefined && command.getOptionValueSource(found.attributeName()) === 'cli';
  };
  return (field) => {
    const flags = FLAGS_OF_FIELD[field];
    if (!flags) return undefined;
    return flags.find(typed) ?? flags.find((flag) => option(flag) !== undefined) ?? flags[0];
  };
}

const escapeRegExp = (name: string) => name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
// Longest first, so `attendee.email` wins over a shorter name inside it.
const NAMES = Object.keys(FLAGS_OF_FIELD).sort((a, b) => b.length - a.length);
const FIELD = new RegExp(`(?<![\\w.-])(${NAMES.map(escapeRegExp).join('|')})((?:\\.[\\w]+)*)(?![\\w-])`, 'g');

const ARTICLE_BEFORE = /\b(?:the|a|an|this|that) $/i;

/** A name no English sentence uses as a word (`location_url`, `attendee.email`): always a field. */
const isIdentifier = (name: string) => /[_.]/.test(name);

/** A clause that names its field first (`start: must …`): the rest is a rule, in plain words. */
const FIELD_FIRST = /^([\w.-]+): /;

function clauseInFlagTerms(clause: string, flagOf: FlagOf): string {
  const rename = (whole: string, name: string) => flagOf(name) ?? whole;
  const first = FIELD_FIRST.exec(clause);
  if (first) {
    const field = first[1]!;
    const name = field.replace(FIELD, (whole, top: string) => rename(whole, top));
    // A rule may name other fields too ("name the event type: event_type_id, or …"); plain words stay words.
    const rule = clause.slice(first[0].length).replace(FIELD, (whole, top: string) => (isIdentifier(top) ? rename(whole, top) : whole));
    return `${name}: ${rule}`;
  }
  // A sentence of core's own about fields names them among plain words ("end must be after start");
  // one after an article is a plain word itself ("The cursor is not valid"), unless no word is spelt so.
  return clause.replace(FIELD, (whole, name: string, _nested: string, at: number) =>
    ARTICLE_BEFORE.test(clause.slice(0, at)) && !isIdentifier(name) ? whole : rename(whole, name),
  );
}

/** The one field an error is about, when its details name exactly one. */
function onlyField(details: Readonly<Record<string, unknown>>): string | undefined {
  const fields = Array.isArray(details.fields) ? details.fields : typeof details.param === 'string' ? [details.param] : [];
  if (fields.length !== 1 || typeof fields[0] !== 'string') return undefined;
  return fields[0].split('.')[0];
}

/**
 * An API error message in the CLI's words: each field it names becomes the
 * flag that sends it (`count must be 1 to 42.` → `--count must be 1 to 42.`).
 * Only messages about fields (their details carry `fields` or `param`) are
 * reworded, and in a `field: rule` clause only the field, so that a word
 * such as "time" in "an IANA time zone name" stays a word. A message about
 * one field that names it nowhere is led by its flag (`--cursor: the cursor
 * is not valid …`), so every such error says which flag to fix.
 */
export function inFlagTerms(message: string, details: Readonly<Record<string, unknown>>, flagOf: FlagOf = firstFlagOf): string {
  if (!('fields' in details) && !('param' in details)) return message;
  // Body validation joins one clause per bad field with "; ": `--guest` twice says the same thing once.
  const clauses = [...new Set(message.split('; ').map((clause) => clauseInFlagTerms(clause, flagOf)))];
  const worded = clauses.join('; ');
  if (worded !== message) return worded;
  const field = onlyField(details);
  const flag = field === undefined ? undefined : flagOf(field);
  return flag === undefined ? message : `${flag}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}
