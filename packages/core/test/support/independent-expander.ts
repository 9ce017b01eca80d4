import { spawnSync } from 'node:child_process';
import type { Interval } from '../../src/availability/busy.js';

// Busy times of iCalendar files as an independent reader sees them: Python's
// `icalendar` and `recurring-ical-events` (Debian python3-recurring-ical-events),
// run when installed. Read by the same rules as ours where the RFC leaves a
// choice to the reader: dates and floating times in the host's zone,
// TRANSP:TRANSPARENT and STATUS:CANCELLED block nothing.

const SCRIPT = `
import datetime, json, sys, zoneinfo
import icalendar, recurring_ical_events
args = json.loads(sys.stdin.read())
host = zoneinfo.ZoneInfo(args['zone'])
utc = datetime.timezone.utc
start = datetime.datetime.fromtimestamp(args['startMs'] / 1000, utc)
end = datetime.datetime.fromtimestamp(args['endMs'] / 1000, utc)
def ms(value):
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=host)
    return round(value.timestamp() * 1000)
out = {}
for path in args['files']:
    try:
        with open(path, 'rb') as f:
            calendar = icalendar.Calendar.from_ical(f.read())
        busy = []
        for event in recurring_ical_events.of(calendar).between(start, end):
            if str(event.get('TRANSP', '')).upper() == 'TRANSPARENT' or str(event.get('STATUS', '')).upper() == 'CANCELLED':
                continue
            begin = event['DTSTART'].dt
            if 'DTEND' in event:
                finish = event['DTEND'].dt
            elif 'DURATION' in event:
                finish = begin + event['DURATION'].dt
            elif isinstance(begin, datetime.datetime):
                finish = begin
            else:
                finish = begin + datetime.timedelta(days=1)
            busy.append([ms(begin), ms(finish)])
        out[path] = {'busy': busy}
    except Exception as error:
        out[path] = {'error': type(error).__name__ + ': ' + str(error)}
print(json.dumps(out))
`;

/** The Python that has both libraries, if any: Debian's own first, since a version manager's python3 may lack them. */
export const independentPython = ['/usr/bin/python3', 'python3'].find(
  (python) => spawnSync(python, ['-c', 'import icalendar, recurring_ical_events'], { stdio: 'ignore' }).status === 0,
);

export type IndependentReading = { readonly busy: Interval[] } | { readonly error: string };

/** Each file's busy times within `window` for a host in `zone`, or why the independent reader refused it. */
export function readIndependently(
  python: string,
  files: readonly string[],
  window: Interval,
  zone: string,
): Map<string, IndependentReading> {
  const run = spawnSync(python, ['-c', SCRIPT], {
    input: JSON.stringify({ files, zone, startMs: window.startMs, endMs: window.endMs }),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`the independent reader failed: ${run.stderr}`);
  const answers = JSON.parse(run.stdout) as Record<string, { busy?: [number, number][]; error?: string }>;
  return new Map(
    files.map((file): [string, IndependentReading] => {
      const answer = answers[file];
      if (!answer?.busy) return [file, { error: answer?.error ?? 'no answer' }];
      return [file, { busy: answer.busy.map(([startMs, endMs]) => ({ startMs, endMs })) }];
    }),
  );
}
