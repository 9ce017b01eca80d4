/**
 * Producers' slips that have one sensible reading, mended line by line
 * before ical.js (which is strict) sees the text. Each repair is named in the
 * README ("Conflict calendars").
 */

/** Properties whose values are dates or date-times. */
const TIME_PROPERTIES = new Set(['DTSTART', 'DTEND', 'DUE', 'EXDATE', 'RDATE', 'RECURRENCE-ID']);
const RULE_PROPERTIES = new Set(['RRULE', 'EXRULE']);

/** NAME, then parameters (a quoted value may hold ':' or ';'), then ':' and the value. */
const CONTENT_LINE = /^([A-Za-z0-9-]+)((?:;(?:[^":;]|"[^"]*")*)*):(.*)$/s;
const DATES_ONLY = /^\d{8}(?:,\d{8})*$/;
const DATE_TIMES = /^\d{8}T\d{6}Z?(?:,\d{8}T\d{6}Z?)*$/i;

/** RFC 5545 §3.1: a line break followed by one space or tab continues the line. Blank lines are dropped. */
export function logicalLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n')
    .filter((line) => line.trim().length > 0);
}

/**
 * The line as ical.js can read it, or undefined for a line to leave out:
 * - not a content line (a stray `SUMMARY=…`, a continuation that lost its
 *   leading space): left out; such lines hold text, never the times we read;
 * - a time property or rule with no value (`EXDATE;VALUE=DATE:`, a holiday
 *   feed's `RRULE:`): left out, so the event stands alone;
 * - dates written without `VALUE=DATE` (`DTSTART:20190101`): marked as dates;
 * - a date-time written with `VALUE=DATE` (`DTSTART;VALUE=DATE:20260310T090000`):
 *   read as the date-time it is, since read as a date a multi-day event would
 *   lose the hours of its last day;
 * - a parameter written with `:` for `=` (Exchange's `DTSTART;TZID:Pacific Standard Time:…`): mended;
 * - spaces inside a rule (`BYDAY=MO, TU`): removed.
 */
export function repairLine(line: string): string | undefined {
  const parts = CONTENT_LINE.exec(line);
  if (!parts) return undefined;
  // Stryker disable next-line StringLiteral: every group of CONTENT_LINE takes part in a match, so no default is ever used
  const [, name = '', written = '', raw = ''] = parts;
  const upper = name.toUpperCase();
  if (TIME_PROPERTIES.has(upper)) {
    const [params, value] = mendedParameter(written, raw);
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    if (DATE_TIMES.test(trimmed)) return `${name}${params.replace(/;VALUE=DATE(?=;|$)/i, '')}:${trimmed}`;
    const typed = /;VALUE=/i.test(params);
    return `${name}${params}${!typed && DATES_ONLY.test(trimmed) ? ';VALUE=DATE' : ''}:${trimmed}`;
  }
  if (RULE_PROPERTIES.has(upper)) {
    // Stryker disable next-line Regex: removing each space alone or each run of them leaves the same rule
    const rule = raw.replace(/\s+/g, '');
    return rule === '' ? undefined : `${name}${written}:${rule}`;
  }
  return line;
}

/**
 * A last parameter without `=` whose value then holds the parameter's value
 * before a second `:` (`;TZID:Pacific Standard Time:20260318T100000`) is
 * read as `;TZID=Pacific Standard Time`.
 */
function mendedParameter(params: string, value: string): [string, string] {
  const colon = value.lastIndexOf(':');
  if (colon < 0 || !/;[A-Za-z-]+$/.test(params)) return [params, value];
  return [`${params}=${value.slice(0, colon)}`, value.slice(colon + 1)];
}

/** One component written directly inside a VCALENDAR (a VEVENT, VTIMEZONE, VTODO…), as its own text. */
export interface Block {
  readonly name: string;
  readonly text: string;
  /** The UID line's value, read from the text so that a block ical.js refuses can still be named. */
  readonly uid: string | undefined;
}

/** A VCALENDAR cut into its own properties and its components, so one broken component costs only itself. */
export interface CalendarText {
  /** `BEGIN:VCALENDAR`, the calendar's properties, `END:VCALENDAR`. */
  readonly properties: string;
  readonly blocks: readonly Block[];
}

/** A UID is logged, so it is bounded; longer ones are cut. */
const MAX_UID_CHARS = 200;

/**
 * Cuts a feed into its calendars, repairing lines on the way. Throws when the
 * text is not iCalendar at all: no VCALENDAR, or a component left open or
 * closed with the name of another open one. Text outside every VCALENDAR is ignored.
 */
export function splitCalendars(text: string): CalendarText[] {
  const calendars: CalendarText[] = [];
  const stack: string[] = [];
  let properties: string[] = [];
  let blocks: Block[] = [];
  let block: { name: string; lines: string[]; uid: string | undefined } | undefined;

  for (const raw of logicalLines(text)) {
    let line = repairLine(raw);
    if (line === undefined) continue;
    // Stryker disable next-line StringLiteral,ArrayDeclaration,Regex: a line that is no BEGIN or END gets no keyword either way; without '$' the same, '.' stopping only at line terminators, which no component name holds (other Regex mutants are killed)
    const [, keyword = '', component = ''] = /^(BEGIN|END):(.*)$/i.exec(line.trim()) ?? [];
    const name = component.toUpperCase();
    if (keyword.toUpperCase() === 'BEGIN') {
      stack.push(name);
      if (stack.length === 2 && stack[0] === 'VCALENDAR') block = { name, lines: [], uid: undefined };
    } else if (keyword.toUpperCase() === 'END') {
      const open = stack.at(-1);
      // A misspelt END (`END:VTOOD`) that names no open component closes the innermost one
      // inside the calendar: it has that one reading. One naming another open component is refused.
      // Stryker disable next-line ConditionalExpression: an empty stack has no length above 1 (the other conditions' mutants are killed)
      const typo = open !== undefined && stack.length > 1 && !stack.includes(name);
      if (open !== name && !typo) throw new Error(`END:${name} closes ${open ?? 'nothing'}`);
      stack.pop();
      // Stryker disable next-line ConditionalExpression: without a typo the open component is the one named
      if (typo) line = `END:${open}`;
      if (name === 'VCALENDAR' && stack.length === 0) {
        calendars.push({ properties: ['BEGIN:VCALENDAR', ...properties, 'END:VCALENDAR'].join('\r\n'), blocks });
        properties = [];
        blocks = [];
        continue;
      }
      if (block && stack.length === 1) {
        block.lines.push(line);
        blocks.push({ name: block.name, text: block.lines.join('\r\n'), uid: block.uid });
        block = undefined;
        continue;
      }
    }
    // A component outside any calendar (a VCARD) is skipped with its contents.
    if (stack[0] !== 'VCALENDAR') continue;
    if (block) {
      block.lines.push(line);
      if (stack.length === 2 && /^UID[;:]/i.test(line)) block.uid = line.slice(line.indexOf(':') + 1).slice(0, MAX_UID_CHARS);
      continue;
    }
    // Stryker disable next-line ConditionalExpression,Regex: in a calendar, deeper than its properties a block is always open; at their depth only the calendar's own BEGIN line starts with BEGIN:VCALENDAR (the Regex mutant without '^' is killed)
    if (stack.length === 1 && !/^BEGIN:VCALENDAR$/i.test(line.trim())) properties.push(line);
  }
  if (stack.length > 0) throw new Error(`${stack.at(-1)} is never closed`);
  if (calendars.length === 0) throw new Error('no VCALENDAR');
  return calendars;
}
