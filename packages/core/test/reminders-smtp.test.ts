import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { type ManualClock, manualClock } from '../src/clock.js';
import { randomIds } from '../src/ids.js';
import { smtpMailer } from '../src/notifications/adapters/smtp-mailer.js';
import { smtpSettings } from '../src/notifications/adapters/smtp-settings.js';
import { dispatchNotifications } from '../src/notifications/dispatch-notifications.js';
import type { Mailer } from '../src/notifications/mailer.js';
import type { Store } from '../src/storage/store.js';
import { testDeps } from './support/deps.js';
import { clearMailWrites } from './support/mail-workspace.js';
import { ATTENDEE, loadReminderWorkspace, REMIND_T0, RHEA_EMAIL, reminderCalls } from './support/reminder-workspace.js';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.js';
import { storeFixtures } from './support/stores.js';

// Issue 37: reminders through a real SMTP server on loopback, parsed back with
// mailparser; the booking mail's invite read by two iCalendar parsers that are
// not ours (ical.js, and Python's icalendar where the machine has it) for the
// VALARMs the rules put there.

const FROM = 'Schedule <mail@schedule.test>';
/** Tuesday 10 March 2026, 09:00 UTC: 10:00 in Berlin, 18:00 in Tokyo. */
const START = '2026-03-10T09:00:00.000Z';
/** Debian's python3 with python3-icalendar (CI installs it); another python may not have it. */
const PYTHON = '/usr/bin/python3';
const hasPythonIcalendar = existsSync(PYTHON) && pythonHasIcalendar();

function pythonHasIcalendar(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import icalendar'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Each VALARM's action and trigger, as Python's icalendar reads them: `[action, trigger in seconds, related]`. */
function pythonAlarms(ics: string): unknown {
  const script = [
    'import sys, json, icalendar',
    'cal = icalendar.Calendar.from_ical(sys.stdin.read())',
    'out = []',
    'for a in cal.walk("VALARM"):',
    '    t = a.get("TRIGGER")',
    '    out.append([str(a.get("ACTION")), int(t.dt.total_seconds()), t.params.get("RELATED", "START")])',
    'print(json.dumps(out))',
  ].join('\n');
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: ics }).toString());
}

describe.each(storeFixtures())('reminders through SMTP on $name', (fixture) => {
  let store: Store;
  let clock: ManualClock;
  let sink: SmtpSink;
  let mailer: Mailer;
  let rhea: Principal;

  beforeAll(async () => {
    sink = await startSmtpSink();
    store = await fixture.open();
    clock = manualClock(REMIND_T0);
    await clearMailWrites(store);
    rhea = await loadReminderWorkspace({ store, clock });
    mailer = smtpMailer(smtpSettings(sink.url, FROM));
  });
  afterAll(async () => {
    await sink.close();
    await fixture.cleanup();
  });

  const dispatchAt = async (iso: string) => {
    clock.set(iso);
    sink.received.length = 0;
    await dispatchNotifications({ store, clock, ids: randomIds, mailer }, { limit: 100 });
    return Object.fromEntries(sink.received.map((r) => [r.to.join(','), r.parsed]));
  };

  it('the invites carry each recipient’s alarms, and each reminder arrives at its moment in the recipient’s zone', async () => {
    await reminderCalls(testDeps(store, clock), () => rhea).book(START);
    const booked = await dispatchAt(REMIND_T0);
    const invites = Object.fromEntries(
      Object.entries(booked).map(([to, mail]) => {
        const ics = mail.attachments.find((a) => a.contentType === 'application/ics')!.content.toString('utf8');
        return [to, ics];
      }),
    );
    const icalAlarms = (ics: string) =>
      new ICAL.Component(ICAL.parse(ics))
        .getFirstSubcomponent('vevent')!
        .getAllSubcomponents('valarm')
        .map((a) => {
          const trigger = a.getFirstProperty('trigger')!;
          return [
            a.getFirstPropertyValue('action'),
            (trigger.getFirstValue() as ICAL.Duration).toSeconds(),
            trigger.getParameter('related'),
          ];
        });
    // The attendee is reminded a day and an hour ahead, the host an hour ahead (the follow-up and the webhook rule alarm nobody).
    expect(icalAlarms(invites[ATTENDEE.email]!)).toEqual([
      ['DISPLAY', -86_400, 'START'],
      ['DISPLAY', -3_600, 'START'],
    ]);
    expect(icalAlarms(invites[RHEA_EMAIL]!)).toEqual([['DISPLAY', -3_600, 'START']]);
    if (hasPythonIcalendar) {
      expect(pythonAlarms(invites[ATTENDEE.email]!)).toEqual([
        ['DISPLAY', -86_400, 'START'],
        ['DISPLAY', -3_600, 'START'],
      ]);
      expect(pythonAlarms(invites[RHEA_EMAIL]!)).toEqual([['DISPLAY', -3_600, 'START']]);
    }

    expect(await dispatchAt('2026-03-09T08:59:59.000Z')).toEqual({});
    const dayBefore = await dispatchAt('2026-03-09T09:00:00.000Z');
    expect(Object.keys(dayBefore)).toEqual([ATTENDEE.email]);
    const reminder = dayBefore[ATTENDEE.email]!;
    expect(reminder.subject).toBe('Reminder: Remind with Rhea Host in 1 day');
    expect(reminder.text).toContain('When: Tuesday 10 March 2026, 18:00–18:30 (GMT+9)');
    expect(reminder.replyTo?.value).toEqual([{ address: RHEA_EMAIL, name: '' }]);
    expect(reminder.attachments).toEqual([]);

    const hour = await dispatchAt('2026-03-10T08:00:00.000Z');
    expect(Object.keys(hour).sort()).toEqual([ATTENDEE.email, RHEA_EMAIL]);
    expect(hour[RHEA_EMAIL]!.subject).toBe('Reminder: Remind with Kenji Guest in 1 hour');
    expect(hour[RHEA_EMAIL]!.text).toContain('When: Tuesday 10 March 2026, 10:00–10:30 (CET)');
    expect(hour[ATTENDEE.email]!.text).toContain('When: Tuesday 10 March 2026, 18:00–18:30 (GMT+9)');
  });
});
