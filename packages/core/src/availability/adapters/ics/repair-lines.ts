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
 * - a time property with no value (`EXDATE;VALUE=DATE:`): left out;
 * - dates written without `VALUE=DATE` (`DTSTART:20190101`): marked as dates;
 * - spaces inside a rule (`BYDAY=MO, TU`): removed.
 */
export function repairLine(line: string): string | undefined {
  const parts = CONTENT_LINE.exec(line);
  if (!parts) return undefined;
  const [, name = '', params = '', value = ''] = parts;
  const upper = name.toUpperCase();
  if (TIME_PROPERTIES.has(upper)) {
    const trimmed = value.trim();
    if (trimmed === '') return undefined;
    const typed = /;VALUE=/i.test(params);
    return `${name}${params}${!typed && DATES_ONLY.test(trimmed) ? ';VALUE=DATE' : ''}:${trimmed}`;
  }
  if (RULE_PROPERTIES.has(upper)) return `${name}${params}:${value.replace(/\s+/g, '')}`;
  return line;
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
 * closed with another's name. Text outside every VCALENDAR is ignored.
 */
export function splitCalendars(text: string): CalendarText[] {
  const calendars: CalendarText[] = [];
  const stack: string[] = [];
  let properties: string[] = [];
  let blocks: Block[] = [];
  let block: { name: string; lines: string[]; uid: string | undefined } | undefined;

  for (const raw of logicalLines(text)) {
    const line = repairLine(raw);
    if (line === undefined) continue;
    const [, keyword = '', component = ''] = /^(BEGIN|END):(.*)$/i.exec(line.trim()) ?? [];
    const name = component.toUpperCase();
    if (keyword.toUpperCase() === 'BEGIN') {
      if (stack.length === 0 && name !== 'VCALENDAR') {
        stack.push(name); // a component outside any calendar (a VCARD): skipped with its contents
        continue;
      }
      stack.push(name);
      if (stack.length === 2 && stack[0] === 'VCALENDAR') block = { name, lines: [], uid: undefined };
    } else if (keyword.toUpperCase() === 'END') {
      if (stack.at(-1) !== name) throw new Error(`END:${name} closes ${stack.at(-1) ?? 'nothing'}`);
      stack.pop();
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
    if (stack[0] !== 'VCALENDAR') continue;
    if (block) {
      block.lines.push(line);
      if (stack.length === 2 && /^UID[;:]/i.test(line)) block.uid = line.slice(line.indexOf(':') + 1).slice(0, MAX_UID_CHARS);
    } else if (stack.length === 1 && !/^BEGIN:VCALENDAR$/i.test(line.trim())) {
      properties.push(line);
    }
  }
  if (stack.length > 0) throw new Error(`${stack.at(-1)} is never closed`);
  if (calendars.length === 0) throw new Error('no VCALENDAR');
  return calendars;
}
