import { spawnSync } from 'node:child_process';

// An iCalendar reader that shares nothing with ours or with ical.js: Python's
// `icalendar` (Debian python3-icalendar), run by the test when a Python that
// has it is found. Tests that need it skip without it.

/** One VEVENT as the independent parser read it: instants in UTC ISO form. */
export interface ParsedEvent {
  readonly uid: string;
  readonly sequence: number;
  readonly start: string;
  readonly end: string;
  readonly status: string;
  readonly organizer: string;
  readonly attendees: readonly string[];
  /** LOCATION, or empty when the event has none. */
  readonly location: string;
}

/** One calendar object: its METHOD and its events. */
export interface ParsedCalendar {
  readonly method: string;
  readonly events: readonly ParsedEvent[];
}

const READER = `
import json, sys, datetime
from icalendar import Calendar
def utc(value):
    dt = value.dt
    if dt.tzinfo is None:
        raise SystemExit("floating time in an invite")
    return dt.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
out = []
for text in json.load(sys.stdin):
    cal = Calendar.from_ical(text)
    events = []
    for ev in cal.walk("VEVENT"):
        attendees = ev.get("ATTENDEE", [])
        if not isinstance(attendees, list):
            attendees = [attendees]
        events.append({
            "uid": str(ev["UID"]),
            "sequence": int(ev.get("SEQUENCE", 0)),
            "start": utc(ev["DTSTART"]),
            "end": utc(ev["DTEND"]),
            "status": str(ev.get("STATUS", "")),
            "organizer": str(ev.get("ORGANIZER", "")),
            "attendees": [str(a) for a in attendees],
            "location": str(ev.get("LOCATION", "")),
        })
    out.append({"method": str(cal.get("METHOD", "")), "events": events})
json.dump(out, sys.stdout)
`;

/** The first Python that can import icalendar: Debian's own before whatever PATH finds first. */
export const independentPython: string | undefined = ['/usr/bin/python3', 'python3'].find(
  (python) => spawnSync(python, ['-c', 'import icalendar'], { stdio: 'ignore' }).status === 0,
);

/** Reads iCalendar texts with Python's icalendar; throws (failing the test) on any text it cannot read. */
export function parseIndependently(texts: readonly string[]): ParsedCalendar[] {
  if (independentPython === undefined) throw new Error('no Python with icalendar');
  const run = spawnSync(independentPython, ['-c', READER], { input: JSON.stringify(texts), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python icalendar could not read an invite: ${run.stderr}`);
  return JSON.parse(run.stdout) as ParsedCalendar[];
}
