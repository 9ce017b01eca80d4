import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/http.js';
import { runServeToExit, type ServerProcess, startServer, writeWorkspace } from './support/serve.js';
import { type Received, startSmtpSink } from './support/smtp-sink.js';

// Issue 16, "Email": `schedule serve` with SMTP_URL sends a booking's mail
// through a real SMTP server, the invite attached (docs/mail.md).

const SECRET = 'pat_mail_host_all_scopes';
const workspace = writeWorkspace({
  users: [{ id: '71000000-0000-4000-8000-00000000000a', username: 'hana', email: 'hana@host.test', name: 'Hana Host', role: 'owner' }],
  event_types: [{ id: '71000000-0000-4000-8000-0000000000e1', owner: 'hana', slug: 'meet', name: 'Meet', duration_minutes: 30 }],
  tokens: [{ name: 'hana', user: 'hana', secret: SECRET, scopes: ['bookings:read', 'bookings:create'] }],
});
const ENV = {
  MAIL_FROM: 'Schedule <mail@schedule.test>',
  MAIL_DISPATCH_MS: '50',
  LOG_LEVEL: 'info',
  CONFERENCE_BASE_URL: 'https://meet.test',
};

describe('schedule serve with SMTP_URL', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let server: ServerProcess;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startServer(['--workspace', workspace, '--db', ':memory:'], { ...ENV, SMTP_URL: sink.url });
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
  });

  it('a booking made through the API reaches host and attendee by SMTP, each with the invite', async () => {
    // Two days ahead, on the hour: free (the host has no working hours) and on the slot grid.
    const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000).toISOString();
    const created = await api(server.url, '/v1/bookings', {
      method: 'POST',
      token: SECRET,
      headers: { 'idempotency-key': 'mail-serve-create-1' },
      json: { event_type_id: '71000000-0000-4000-8000-0000000000e1', start, attendee: { email: 'bob@guest.test', name: 'Bob Guest' } },
    });
    expect(created.status).toBe(201);
    const uid: string = created.body.data.uid;

    await expect.poll(() => sink.received.length, { timeout: 10_000, interval: 50 }).toBe(2);
    const byRecipient = new Map(sink.received.map((r: Received) => [r.to.join(','), r.parsed]));
    expect([...byRecipient.keys()].sort()).toEqual(['bob@guest.test', 'hana@host.test']);
    expect(byRecipient.get('bob@guest.test')!.subject).toBe('Booked: Meet with Hana Host');
    expect(byRecipient.get('hana@host.test')!.subject).toBe('New booking: Meet with Bob Guest');
    // Each shown as from the person a reply reaches, sent from the service's address.
    expect(byRecipient.get('bob@guest.test')!.from?.value).toEqual([{ address: 'mail@schedule.test', name: 'Hana Host via Schedule' }]);
    expect(byRecipient.get('hana@host.test')!.from?.value).toEqual([{ address: 'mail@schedule.test', name: 'Bob Guest via Schedule' }]);
    for (const parsed of byRecipient.values()) {
      const ics = parsed.attachments.find((a) => a.contentType === 'application/ics')!;
      const calendar = new ICAL.Component(ICAL.parse(ics.content.toString('utf8')));
      const event = calendar.getFirstSubcomponent('vevent')!;
      expect({
        method: calendar.getFirstPropertyValue('method'),
        uid: event.getFirstPropertyValue('uid'),
        sequence: event.getFirstPropertyValue('sequence'),
        start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
        end: (event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString(),
        url: event.getFirstPropertyValue('url'),
      }).toEqual({
        method: 'REQUEST',
        uid: `${uid}@schedule`,
        sequence: 1,
        start,
        end: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
        url: `https://meet.test/${uid}`,
      });
    }
    // Each sent mail is logged once, with the Message-ID it left with.
    const sentLines = () =>
      server
        .output()
        .stderr.split('\n')
        .filter((line) => line.includes('"msg":"mail sent"'))
        .map((line) => JSON.parse(line));
    await expect.poll(() => sentLines().length, { timeout: 5_000, interval: 50 }).toBe(2);
    expect(
      sentLines()
        .map((l) => l.message_id)
        .sort(),
    ).toEqual([...byRecipient.values()].map((p) => p.messageId).sort());
  });
});

describe('schedule serve refuses mail settings that cannot work', () => {
  it.each<[Record<string, string>, string]>([
    [{ SMTP_URL: 'smtp://127.0.0.1:2525' }, 'error usage: SMTP_URL is set but MAIL_FROM is not'],
    [
      { SMTP_URL: 'http://user:hunter2@mail.example', MAIL_FROM: 'a@b.example' },
      'error usage: SMTP_URL must start with smtp:// or smtps://',
    ],
    ...['0', '33', '2.5', 'many'].map((n): [Record<string, string>, string] => [
      { MAIL_CONCURRENCY: n },
      `error usage: MAIL_CONCURRENCY=${n}: give a whole number from 1 to 32.`,
    ]),
  ])('%j: exit 2 before listening, saying what to set', async (env, message) => {
    const run = await runServeToExit(['--workspace', workspace, '--db', ':memory:'], env);
    expect(run).toMatchObject({ code: 2, listened: false });
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain('hunter2');
  });
});
