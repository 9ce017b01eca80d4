import { join } from 'node:path';
import { type ExecuteDeps, execute, openStore, operationsByName, randomIds, type Store, visitorPrincipal } from '@schedule/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenOf, getPage, manageLinkOf, type PageAnswer, postForm, rawGet, timesShown } from './support/booking-page.js';
import { jsonOf, runCli } from './support/cli-run.js';
import { type ApiRequest, type ApiResponse, api as apiChecked } from './support/http.js';
import { type MovableClock, movableClock, startInProcess } from './support/in-process.js';
import { connectHttp, type McpSession, toolData } from './support/mcp-client.js';
import { openSocket, parseResponse, readUntil, requestHead } from './support/raw-http.js';
import type { TestServer } from './support/serve.js';
import { tempDir, writeWorkspace } from './support/serve.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';
import { ALL_SCOPES } from './support/workspace.js';

// The booking page (packages/page) over plain HTTP, as a browser without
// scripts meets it: which pages exist, their headers, the form post and
// its refusals, manage links, the anonymous rate limit, and `booking_url`
// in every front end. The clock is pinned to a Monday in 2030, so the
// page's free times are the same whatever day the suite runs.

const NOW = Date.parse('2030-01-07T06:00:00.000Z');
const HANA = 'a1000000-0000-4000-8000-000000000001';
const IVAN = 'a1000000-0000-4000-8000-000000000002';
const TOKEN = 'page-http-secret-hana-all';
const IVAN_BOOKING = 'a3000000-0000-4000-8000-000000000001';
const PUBLIC_URL = 'https://book.example.test';

const TYPE = {
  intro: 'a2000000-0000-4000-8000-000000000001',
  secret: 'a2000000-0000-4000-8000-000000000002',
  inner: 'a2000000-0000-4000-8000-000000000003',
  paused: 'a2000000-0000-4000-8000-000000000004',
  gone: 'a2000000-0000-4000-8000-000000000005',
  fixed: 'a2000000-0000-4000-8000-000000000006',
  movable: 'a2000000-0000-4000-8000-000000000007',
  ivan: 'a2000000-0000-4000-8000-000000000008',
  noticed: 'a2000000-0000-4000-8000-000000000009',
  approve: 'a2000000-0000-4000-8000-00000000000a',
} as const;

const weekdays = {
  mon: [['09:00', '12:00']],
  tue: [['09:00', '12:00']],
  wed: [['09:00', '12:00']],
  thu: [['09:00', '12:00']],
  fri: [['09:00', '12:00']],
};

function eventType(id: string, owner: string, slug: string, name: string, extra: Record<string, unknown> = {}) {
  return { id, owner, slug, name, duration_minutes: 30, minimum_notice_minutes: 0, future_limit_days: 60, ...extra };
}

function workspaceWith(limits: Record<string, number>) {
  return {
    organization: { name: 'Page HTTP' },
    limits: { pat_per_minute: 10_000, ...limits },
    users: [
      {
        id: HANA,
        username: 'hana',
        email: 'hana@page.test',
        name: 'Hana Host',
        timezone: 'UTC',
        role: 'owner',
        schedule: { timezone: 'UTC', weekly: weekdays },
      },
      {
        id: IVAN,
        username: 'ivan',
        email: 'ivan@page.test',
        name: 'Ivan Other',
        timezone: 'UTC',
        role: 'user',
        schedule: { timezone: 'UTC', weekly: weekdays },
      },
    ],
    event_types: [
      eventType(TYPE.intro, 'hana', 'intro', 'Intro call', {
        recurring: 'on',
        questions: [{ id: 'topic', label: 'Topic', required: false }],
      }),
      eventType(TYPE.secret, 'hana', 'secret-chat', 'Secret chat', { visibility: 'hidden' }),
      eventType(TYPE.inner, 'hana', 'inner-circle', 'Inner circle', { visibility: 'private' }),
      eventType(TYPE.paused, 'hana', 'paused', 'Paused talk', { status: 'off' }),
      eventType(TYPE.gone, 'hana', 'gone', 'Gone talk'),
      eventType(TYPE.fixed, 'hana', 'fixed-time', 'Fixed time', { allow_reschedule: false }),
      eventType(TYPE.movable, 'hana', 'movable', 'Movable talk', { allow_reschedule: true }),
      eventType(TYPE.ivan, 'ivan', 'ivan-call', 'Ivan call'),
      // Hidden, so the host page's list stays as it was; booked by its link.
      eventType(TYPE.noticed, 'hana', 'noticed', 'Noticed talk', {
        visibility: 'hidden',
        cancel_notice_minutes: 2 * 1440,
        reschedule_notice_minutes: 30 * 60,
      }),
      eventType(TYPE.approve, 'hana', 'approve', 'Approved talk', { visibility: 'hidden', requires_confirmation: true }),
    ],
    tokens: [{ name: 'hana', user: 'hana', secret: TOKEN, scopes: [...ALL_SCOPES] }],
    bookings: [
      {
        uid: IVAN_BOOKING,
        event_type: 'ivan-call',
        host: 'ivan',
        start: '2030-01-08T10:00:00.000Z',
        attendee: { email: 'zoe@example.com', name: 'Zoe Guest', timezone: 'UTC' },
        status: 'confirmed',
      },
    ],
  };
}

let clock: MovableClock;
let server: TestServer;
let dbPath: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  clock = movableClock();
  clock.set(NOW);
  dbPath = join(tempDir('schedule-page-http-'), 'page.db');
  receiver = await startWebhookReceiver();
  server = await startInProcess(
    { workspace: writeWorkspace(workspaceWith({ anonymous_per_minute: 10_000 })), db: dbPath, clock },
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' },
  );
  // A move's reason is in its event, not in the booking: the host hears it through a webhook.
  const hook = await api(server.url, '/v1/webhooks', {
    method: 'POST',
    token: TOKEN,
    headers: { 'idempotency-key': 'page-http-webhook' },
    json: { url: `${receiver.url}/hook`, events: ['booking.rescheduled'] },
  });
  expect(hook.status, hook.text).toBe(201);
  // An archived type: the API's DELETE, which no workspace file can say.
  expect((await api(server.url, `/v1/event-types/${TYPE.gone}`, { method: 'DELETE', token: TOKEN })).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

/** The API, each answer checked against docs/openapi.json. */
const api = (base: string, path: string, request: ApiRequest = {}): Promise<ApiResponse> => apiChecked(base, path, request);

/** `data` of a success (the rate-limit headers are not compared with the real time: this server's clock is pinned). */
function expectData(res: ApiResponse, status = 200): any {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  return res.body.data;
}

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const NOT_FOUND = 'This page does not exist.';
const EXPIRED = 'This form has expired. Please send it again.';
const NOT_FROM_HERE = 'This form was not sent from this site. Please open the page again and send it from there.';

/** The hana's confirmed bookings starting at `start`, as the API lists them. */
async function bookingsAt(start: string, status = 'confirmed'): Promise<any[]> {
  const res = await api(server.url, '/v1/bookings?limit=100&start=2030-01-01T00:00:00Z', { token: TOKEN });
  const all = expectData(res) as any[];
  return all.filter((b) => b.start_at === start && b.status === status && b.host.username === 'hana');
}

/** The form for `start` on `slug`, and its token. */
async function formFor(slug: string, start: string, base = server.url): Promise<{ page: PageAnswer; token: string }> {
  const page = await getPage(base, `/@hana/${slug}/book?start=${encodeURIComponent(start)}`);
  expect(page.status, page.text.slice(0, 500)).toBe(200);
  return { page, token: formTokenOf(page.text) };
}

const visitor = { name: 'Vera Visitor', email: 'vera@example.com' };

/** Opens the form for `start` on `slug` and sends it as the visitor would, `fields` over the defaults. */
async function sendForm(slug: string, start: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const { token } = await formFor(slug, start);
  return postForm(server.url, `/@hana/${slug}/book`, { form_token: token, start, ...visitor, action: 'book', ...fields }, headers);
}

/** Books `start` on `slug` through the page; returns the 303's manage link path. */
async function bookThroughPage(slug: string, start: string, fields: Record<string, string> = {}): Promise<string> {
  const res = await sendForm(slug, start, { website: '', ...fields });
  expect(res.status, res.text.slice(0, 800)).toBe(303);
  expect(res.headers.get('location')).toMatch(/^\/booking\/[A-Za-z0-9_.-]+\?done=booked$/);
  return manageLinkOf(res.headers.get('location'));
}

describe('which pages exist', () => {
  it('the host page lists the public, switched-on, live types only', async () => {
    const res = await getPage(server.url, '/@hana');
    expect(res.status).toBe(200);
    const listed = [...res.text.matchAll(/<a class="type" href="([^"]+)">/g)].map((m) => m[1]);
    // By name: Fixed time, Intro call, Movable talk. Not the hidden, private, switched-off or archived ones.
    expect(listed).toEqual(['/@hana/fixed-time', '/@hana/intro', '/@hana/movable']);
    for (const name of ['Secret chat', 'Inner circle', 'Paused talk', 'Gone talk']) expect(res.text).not.toContain(name);
  });

  it('on the last day of a month with no free time left, the page opens on the next calendar month, not 32 days on', async () => {
    // 2030-01-31 after the host's hours: January has nothing left; 32 days on is March, which skipped February.
    const before = clock.now();
    clock.set(Date.parse('2030-01-31T13:00:00.000Z'));
    try {
      const res = await getPage(server.url, '/@hana/intro');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h2 id="month-title" aria-live="polite">February 2030</h2>');
      // Its first free day is chosen: Friday 1 February 2030, from 09:00 UTC (the host's zone, no tz asked).
      expect(timesShown(res.text)[0]).toBe('2030-02-01T09:00:00.000Z');
    } finally {
      clock.set(before);
    }
  });

  it.each([
    ['an unknown host', '/@nobody'],
    ['an unknown host’s type', '/@nobody/intro'],
    ['an unknown slug', '/@hana/nope'],
    ['a private type', '/@hana/inner-circle'],
    ['a private type’s form', '/@hana/inner-circle/book?start=2030-01-08T09:00:00.000Z'],
    ['an archived type', '/@hana/gone'],
    ['a path under a type', '/@hana/intro/else'],
  ])('404 for %s', async (_, path) => {
    const res = await getPage(server.url, path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(`<title>Not found</title>`);
    expect(res.text).toContain(NOT_FOUND);
  });

  it('a hidden type’s page is 200 with its times, and books', async () => {
    const res = await getPage(server.url, '/@hana/secret-chat?month=2030-01&date=2030-01-09');
    expect(res.status).toBe(200);
    expect(timesShown(res.text)).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((t) => `2030-01-09T${t}:00.000Z`));
    await bookThroughPage('secret-chat', '2030-01-09T09:00:00.000Z');
    expect((await bookingsAt('2030-01-09T09:00:00.000Z')).map((b) => b.event_type_slug)).toEqual(['secret-chat']);
  });

  it('the visitor’s zone, by its current IANA name too (ICU lists Asia/Katmandu); a nonsense zone falls back to the host’s', async () => {
    for (const zone of ['Asia/Kathmandu', 'Asia/Katmandu', 'Asia/Kolkata', 'America/St_Johns']) {
      const res = await getPage(server.url, `/@hana/intro?month=2030-01&date=2030-01-07&tz=${zone}&fragment=1`);
      expect(res.status).toBe(200);
      expect(res.text, zone).toContain(`<p class="muted">Times are shown in ${zone}.</p>`);
      expect(timesShown(res.text)[0]).toBe('2030-01-07T09:00:00.000Z');
    }
    const kathmandu = await getPage(server.url, '/@hana/intro?month=2030-01&date=2030-01-07&tz=Asia/Kathmandu');
    expect(kathmandu.text).toContain('<option selected>Asia/Kathmandu</option>');
    expect(kathmandu.text).toContain('<time datetime="2030-01-07T09:00:00.000Z">2:45 PM</time>');
    // Every link keeps the zone chosen.
    expect(kathmandu.text).toContain('href="/@hana/intro/book?tz=Asia%2FKathmandu&amp;start=2030-01-07T09%3A00%3A00.000Z"');
    for (const zone of ['Not/AZone', 'asia', '../etc', 'Asia/Kathmandu/x/y']) {
      const res = await getPage(server.url, `/@hana/intro?month=2030-01&date=2030-01-07&tz=${encodeURIComponent(zone)}&fragment=1`);
      expect(res.status).toBe(200);
      expect(res.text, zone).toContain('<p class="muted">Times are shown in UTC.</p>');
    }
  });

  it('a switched-off type’s page is there but offers no times', async () => {
    const res = await getPage(server.url, '/@hana/paused');
    expect(res.status).toBe(200);
    expect(timesShown(res.text)).toEqual([]);
    expect(res.text).not.toContain('/@hana/paused/book?start=');
  });
});

describe('headers', () => {
  it('CSP exact; frame-ancestors * only with embed=1; no-store; nosniff', async () => {
    const plain = await getPage(server.url, '/@hana/intro');
    expect(plain.headers.get('content-security-policy')).toBe(CSP);
    expect(plain.headers.get('cache-control')).toBe('no-store');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(plain.headers.get('referrer-policy')).toBe('same-origin');
    const embedded = await getPage(server.url, '/@hana/intro?embed=1');
    expect(embedded.status).toBe(200);
    expect(embedded.headers.get('content-security-policy')).toBe(CSP.replace("frame-ancestors 'none'", 'frame-ancestors *'));
    const notEmbed = await getPage(server.url, '/@hana/intro?embed=true');
    expect(notEmbed.headers.get('content-security-policy')).toBe(CSP);
    // Refusals carry the same policy.
    expect((await getPage(server.url, '/@nobody')).headers.get('content-security-policy')).toBe(CSP);
  });

  it('brotli or gzip when asked, identity otherwise, Vary on both choices', async () => {
    const plain = await rawGet(server.url, '/@hana', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding, Accept-Language');
    expect(plain.decoded).toContain('<h1>Book a time with Hana Host</h1>');
    for (const [asked, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['deflate', undefined],
    ] as const) {
      const res = await rawGet(server.url, '/@hana', { 'accept-encoding': asked });
      expect(res.headers['content-encoding'], asked).toBe(expected);
      expect(res.headers.vary).toBe('Accept-Encoding, Accept-Language');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.decoded).toBe(plain.decoded);
    }
  });

  it('assets: the hashed files the page names, cached for a year', async () => {
    const page = await getPage(server.url, '/@hana');
    const css = /<link rel="stylesheet" href="(\/booking\/assets\/page\.[0-9a-f]+\.css)">/.exec(page.text)?.[1];
    const js = /<script src="(\/booking\/assets\/page\.[0-9a-f]+\.js)" defer><\/script>/.exec(page.text)?.[1];
    expect(css).toBeDefined();
    expect(js).toBeDefined();
    for (const [path, type] of [
      [css!, 'text/css; charset=utf-8'],
      [js!, 'text/javascript; charset=utf-8'],
    ] as const) {
      const res = await rawGet(server.url, path, { 'accept-encoding': 'gzip' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      expect(res.decoded.length).toBeGreaterThan(100);
    }
    expect((await getPage(server.url, '/booking/assets/page.000000000000.css')).status).toBe(404);
  });
});

describe('booking by post', () => {
  it('303 to the manage link, and the API has the booking at that start with the answers', async () => {
    const start = '2030-01-08T09:30:00.000Z';
    const link = await bookThroughPage('intro', start, { 'q.topic': 'Pricing', guests: 'g1@example.com\ng2@example.com' });
    const [booking] = await bookingsAt(start);
    expect(booking).toMatchObject({
      event_type_slug: 'intro',
      status: 'confirmed',
      start_at: start,
      end_at: '2030-01-08T10:00:00.000Z',
      attendees: [{ email: 'vera@example.com', name: 'Vera Visitor' }],
      guests: [{ email: 'g1@example.com' }, { email: 'g2@example.com' }],
    });
    const one = expectData(await api(server.url, `/v1/bookings/${booking.uid}`, { token: TOKEN }));
    expect(one.responses).toEqual({ topic: 'Pricing' });
    const manage = await getPage(server.url, `${link}?done=booked`);
    expect(manage.status).toBe(200);
    expect(manage.text).toContain('You are booked');
  });

  it('on a type that requires confirmation: pending, the page says requested, awaiting the host (English and German), no calendar links', async () => {
    const start = '2030-01-08T11:30:00.000Z';
    const link = await bookThroughPage('approve', start);
    expect(await bookingsAt(start, 'pending')).toHaveLength(1);
    const manage = await getPage(server.url, `${link}?done=booked`);
    expect(manage.status).toBe(200);
    expect(manage.text).toContain('<h1>Requested, awaiting the host</h1>');
    expect(manage.text).toContain('Hana Host has not confirmed this meeting yet.');
    expect(manage.text).not.toContain('You are booked');
    expect(manage.text).not.toContain('Add to your calendar');
    expect(manage.text).toContain('Cancel the meeting');
    const german = await getPage(server.url, `${link}?done=booked`, { 'accept-language': 'de' });
    expect(german.text).toContain('<h1>Angefragt, wartet auf den Gastgeber</h1>');
    expect(german.text).toContain('Hana Host hat diesen Termin noch nicht bestätigt.');
  });

  it('a double submit with one form token books once; the second answer is the same 303', async () => {
    const start = '2030-01-08T10:00:00.000Z';
    const { token } = await formFor('intro', start);
    const fields = { form_token: token, start, ...visitor, action: 'book', website: '' };
    const first = await postForm(server.url, '/@hana/intro/book', fields);
    const second = await postForm(server.url, '/@hana/intro/book', fields);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(await bookingsAt(start)).toHaveLength(1);
  });

  it('a double click (two posts of one form at once): one booking, both answers the same 303', async () => {
    const start = '2030-01-16T09:00:00.000Z';
    const { token } = await formFor('intro', start);
    const fields = { form_token: token, start, ...visitor, action: 'book', website: '' };
    const answers = await Promise.all([1, 2, 3].map(() => postForm(server.url, '/@hana/intro/book', fields)));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    expect(new Set(answers.map((a) => a.headers.get('location'))).size).toBe(1);
    expect(await bookingsAt(start)).toHaveLength(1);
  });

  it('one form sent again with other details: the form again, not a fault, and the first booking stands', async () => {
    const start = '2030-01-16T09:30:00.000Z';
    const { token } = await formFor('intro', start);
    const first = await postForm(server.url, '/@hana/intro/book', { form_token: token, start, ...visitor, action: 'book' });
    expect(first.status).toBe(303);
    const again = await postForm(server.url, '/@hana/intro/book', {
      form_token: token,
      start,
      ...visitor,
      name: 'Vera V.',
      action: 'book',
    });
    expect(again.status).toBe(400);
    expect(again.text).toContain(EXPIRED);
    expect((await bookingsAt(start)).map((b) => b.attendees[0].name)).toEqual(['Vera Visitor']);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { 'sec-fetch-site': '', origin: 'https://evil.example' }],
  ])('a post with %s: 403, nothing booked', async (_, headers) => {
    const start = '2030-01-08T10:30:00.000Z';
    const res = await sendForm('intro', start, {}, headers);
    expect(res.status).toBe(403);
    expect(res.text).toContain(NOT_FROM_HERE);
    expect(await bookingsAt(start)).toEqual([]);
  });

  it('a post with Origin alone (no Fetch Metadata), of the address the server was reached at: booked', async () => {
    const start = '2030-01-16T10:00:00.000Z';
    const res = await sendForm('intro', start, {}, { 'sec-fetch-site': '' });
    expect(res.status).toBe(303);
    expect(await bookingsAt(start)).toHaveLength(1);
  });

  it('a garbage, a foreign-action or a stale form token: 400, the form again with "This form has expired"', async () => {
    const start = '2030-01-08T10:30:00.000Z';
    const post = (token: string) => postForm(server.url, '/@hana/intro/book', { form_token: token, start, ...visitor, action: 'book' });
    for (const token of ['garbage', '', `${'a'.repeat(22)}.1999999999.${'b'.repeat(43)}`]) {
      const res = await post(token);
      expect(res.status, token).toBe(400);
      expect(res.text).toContain(EXPIRED);
      // The form again, filled in, with a fresh token.
      expect(res.text).toContain('value="vera@example.com"');
      expect(formTokenOf(res.text)).not.toBe(token);
    }
    // A token of another type's form.
    const other = await formFor('movable', start);
    expect((await post(other.token)).status).toBe(400);
    // A token past its two hours.
    const { token } = await formFor('intro', start);
    const issuedAt = clock.now();
    clock.advance(2 * 3_600_000 + 1_000);
    try {
      const res = await post(token);
      expect(res.status).toBe(400);
      expect(res.text).toContain(EXPIRED);
    } finally {
      clock.set(issuedAt);
    }
    expect(await bookingsAt(start)).toEqual([]);
  });

  it('a filled honeypot: 400, nothing booked', async () => {
    const start = '2030-01-08T10:30:00.000Z';
    const res = await sendForm('intro', start, { website: 'http://spam.example' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Please check this field.');
    expect(await bookingsAt(start)).toEqual([]);
  });

  it('an invalid email: 400, the error beside the field, the field marked invalid', async () => {
    const start = '2030-01-08T10:30:00.000Z';
    const { token } = await formFor('intro', start);
    const res = await postForm(server.url, '/@hana/intro/book', {
      form_token: token,
      start,
      name: 'Vera',
      email: 'not-an-email',
      action: 'book',
    });
    expect(res.status).toBe(400);
    const input = /<input type="email" id="email"[^>]*>/.exec(res.text)?.[0];
    expect(input).toContain('value="not-an-email"');
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="email-error"');
    expect(res.text).toMatch(/<input type="email" id="email"[^>]*>\s*<p class="field-error" id="email-error">[^<]+<\/p>/);
    expect(res.text).not.toContain('id="name-error"');
    expect(await bookingsAt(start)).toEqual([]);
  });

  it('a form over 64 KB: 413; another content type: 415; nothing booked', async () => {
    const start = '2030-01-08T10:30:00.000Z';
    const { token } = await formFor('intro', start);
    const big = await postForm(server.url, '/@hana/intro/book', { form_token: token, start, ...visitor, 'q.topic': 'x'.repeat(64 * 1024) });
    expect(big.status).toBe(413);
    const json = await postForm(server.url, '/@hana/intro/book', JSON.stringify({ form_token: token, start }), {
      'content-type': 'application/json',
    });
    expect(json.status).toBe(415);
    const multipart = await postForm(server.url, '/@hana/intro/book', 'x', { 'content-type': 'multipart/form-data; boundary=x' });
    expect(multipart.status).toBe(415);
    expect(await bookingsAt(start)).toEqual([]);
  });

  it('a chunked form passing 64 KB (no Content-Length): the 413 page reaches the client, without the rest being sent; nothing booked', async () => {
    const start = '2030-01-08T10:30:00.000Z';
    const { token } = await formFor('intro', start);
    const host = new URL(server.url).host;
    const socket = await openSocket(server.url);
    socket.write(
      requestHead('POST', '/@hana/intro/book', {
        Host: host,
        Origin: server.url,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Transfer-Encoding': 'chunked',
      }),
    );
    const content = Buffer.from(`form_token=${token}&start=${encodeURIComponent(start)}&q.topic=${'x'.repeat(64 * 1024)}`);
    // One chunk past the limit and no final chunk: the page must answer without the rest.
    for (let offset = 0; offset < content.length; offset += 16 * 1024) {
      const piece = content.subarray(offset, offset + 16 * 1024);
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write('\r\n');
    }
    const res = parseResponse(await readUntil(socket, () => false));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await bookingsAt(start)).toEqual([]);
  });

  it('a weekly series of 3: 303 ?done=series, the series from the page with its occurrences', async () => {
    const start = '2030-01-09T11:00:00.000Z';
    const res = await sendForm('intro', start, { email: 'series@example.com', repeat: 'weekly', count: '3' });
    expect(res.status, res.text.slice(0, 500)).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/booking\/[A-Za-z0-9_.-]+\?done=series$/);
    const series = (expectData(await api(server.url, '/v1/series', { token: TOKEN })) as any[]).filter(
      (s) => s.attendee?.email === 'series@example.com' || s.attendee_email === 'series@example.com',
    );
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({ source: 'public', frequency: 'weekly', count: 3, time: '11:00' });
    const occurrences = expectData(await api(server.url, `/v1/bookings?series_id=${series[0].uid}`, { token: TOKEN })) as any[];
    expect(occurrences.map((b) => [b.start_at, b.status]).sort()).toEqual([
      ['2030-01-09T11:00:00.000Z', 'confirmed'],
      ['2030-01-16T11:00:00.000Z', 'confirmed'],
      ['2030-01-23T11:00:00.000Z', 'confirmed'],
    ]);
  });

  it('action=preview lists the dates it would book and skip, and books nothing', async () => {
    // 2030-01-10 11:30 is taken first, through the API: the weekly preview from 2030-01-03… no, from the 10th skips it.
    const taken = '2030-01-17T11:30:00.000Z';
    await bookThroughPage('intro', taken);
    const start = '2030-01-10T11:30:00.000Z';
    const res = await sendForm('intro', start, { email: 'preview@example.com', repeat: 'weekly', count: '3', action: 'preview' });
    expect(res.status).toBe(200);
    const listed = (label: string) =>
      [...(new RegExp(`<p>${label}</p><ul>(.*?)</ul>`).exec(res.text)?.[1] ?? '').matchAll(/<li>([^<]*)<\/li>/g)].map((m) =>
        // Intl writes narrow and thin spaces around the times.
        m[1]!.replace(/[\u202f\u2009]/g, ' '),
      );
    expect(listed('These dates will be booked:')).toEqual([
      'Thursday, January 10, 2030, 11:30 AM – 12:00 PM',
      'Thursday, January 24, 2030, 11:30 AM – 12:00 PM',
    ]);
    expect(listed('These dates are not free and will be skipped:')).toEqual(['Thursday, January 17, 2030, 11:30 AM – 12:00 PM']);
    // Still a form to confirm, with the choices kept.
    expect(res.text).toContain('<option value="weekly" selected>');
    expect(await bookingsAt(start)).toEqual([]);
    expect(await bookingsAt('2030-01-24T11:30:00.000Z')).toEqual([]);
    const series = expectData(await api(server.url, '/v1/series', { token: TOKEN })) as any[];
    expect(series.filter((s) => JSON.stringify(s).includes('preview@example.com'))).toEqual([]);
  });
});

describe('manage links', () => {
  it('GET 200; a tampered token 404; past the meeting’s end 410', async () => {
    const start = '2030-01-11T09:00:00.000Z';
    const link = await bookThroughPage('intro', start);
    const ok = await getPage(server.url, link);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('<title>Intro call</title>');
    expect(ok.text).toContain(`href="${link}/reschedule"`);
    const token = link.slice('/booking/'.length);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const bad of [flipped, `${token}x`, 'nonsense']) {
      const res = await getPage(server.url, `/booking/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(res.text).toContain(NOT_FOUND);
    }
    expect((await getPage(server.url, `/booking/${flipped}/invite.ics`)).status).toBe(404);
    const before = clock.now();
    clock.set(Date.parse('2030-01-11T09:30:00.000Z') + 60_000);
    try {
      const gone = await getPage(server.url, link);
      expect(gone.status).toBe(410);
      expect(gone.headers.get('content-security-policy')).toBe(CSP);
      expect((await getPage(server.url, `${link}/reschedule`)).status).toBe(410);
    } finally {
      clock.set(before);
    }
    expect((await getPage(server.url, link)).status).toBe(200);
  });

  it('reschedule through the link: 303 to a new link, the API shows the new time', async () => {
    const link = await bookThroughPage('intro', '2030-01-14T09:00:00.000Z');
    const [before] = await bookingsAt('2030-01-14T09:00:00.000Z');
    const target = '2030-01-14T10:30:00.000Z';
    const calendarPage = await getPage(server.url, `${link}/reschedule?month=2030-01&date=2030-01-14`);
    expect(calendarPage.status).toBe(200);
    expect(timesShown(calendarPage.text)).toContain(target);
    // The booking's own time is not free to move to.
    expect(timesShown(calendarPage.text)).not.toContain('2030-01-14T09:00:00.000Z');
    const confirm = await getPage(server.url, `${link}/reschedule?start=${encodeURIComponent(target)}`);
    expect(confirm.status).toBe(200);
    const res = await postForm(server.url, `${link}/reschedule`, {
      form_token: formTokenOf(confirm.text),
      start: target,
      reason: 'Clash at work',
    });
    expect(res.status, res.text.slice(0, 500)).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/booking\/[A-Za-z0-9_.-]+\?done=rescheduled$/);
    const after = expectData(await api(server.url, `/v1/bookings/${before.uid}`, { token: TOKEN }));
    expect(after).toMatchObject({ uid: before.uid, status: 'confirmed', start_at: target, end_at: '2030-01-14T11:00:00.000Z', version: 2 });
    while (!receiver.arrivals.some((a) => a.type === 'booking.rescheduled')) await receiver.changed();
    const event = JSON.parse(receiver.arrivals.find((a) => a.type === 'booking.rescheduled')!.body);
    expect(event.data).toMatchObject({
      uid: before.uid,
      start_at: target,
      previous_start_at: '2030-01-14T09:00:00.000Z',
      reason: 'Clash at work',
    });
    const moved = await getPage(server.url, res.headers.get('location')!);
    expect(moved.status).toBe(200);
    expect(moved.text).toContain('Your meeting has moved');
    // The same form again: the same answer. Again with another time: spent, the form is stale; the meeting stays.
    const replay = await postForm(server.url, `${link}/reschedule`, {
      form_token: formTokenOf(confirm.text),
      start: target,
      reason: 'Clash at work',
    });
    expect([replay.status, replay.headers.get('location')]).toEqual([303, res.headers.get('location')]);
    const other = await postForm(server.url, `${link}/reschedule`, {
      form_token: formTokenOf(confirm.text),
      start: '2030-01-14T10:00:00.000Z',
      reason: 'Clash at work',
    });
    expect(other.status).toBe(400);
    expect(other.text).toContain(EXPIRED);
    expect(expectData(await api(server.url, `/v1/bookings/${before.uid}`, { token: TOKEN }))).toMatchObject({
      start_at: target,
      version: 2,
    });
  });

  it('cancel through the link: 303 ?done=canceled, the API shows it canceled with the reason', async () => {
    const start = '2030-01-14T11:30:00.000Z';
    const link = await bookThroughPage('intro', start);
    const page = await getPage(server.url, link);
    const res = await postForm(server.url, `${link}/cancel`, { form_token: formTokenOf(page.text), reason: 'Plans changed' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${link}?done=canceled`);
    const [canceled] = await bookingsAt(start, 'canceled');
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'Plans changed' });
    expect(await bookingsAt(start)).toEqual([]);
  });

  it('inside the cancel and reschedule notice: 409 with the refusal in words, in English and German; the booking unchanged', async () => {
    // Booked 27 hours ahead: inside the two days' cancel notice and the 30 hours' reschedule notice.
    const start = '2030-01-08T09:00:00.000Z';
    const link = await bookThroughPage('noticed', start);
    const [before] = await bookingsAt(start);
    const page = await getPage(server.url, link);
    const canceled = await postForm(server.url, `${link}/cancel`, { form_token: formTokenOf(page.text), reason: 'Late' });
    expect(canceled.status).toBe(409);
    expect(canceled.text).toContain(
      'This meeting can no longer be canceled here: cancellations close 2 days before it starts. Please contact the host.',
    );
    const german = await getPage(server.url, `${link}?lang=de`);
    const abgesagt = await postForm(server.url, `${link}/cancel?lang=de`, { form_token: formTokenOf(german.text) });
    expect(abgesagt.status).toBe(409);
    expect(abgesagt.text).toContain(
      'Dieser Termin kann hier nicht mehr abgesagt werden: Absagen sind nur bis 2 Tage vor Beginn möglich. Bitte wenden Sie sich an den Gastgeber.',
    );
    const target = '2030-01-08T10:00:00.000Z';
    const confirm = await getPage(server.url, `${link}/reschedule?start=${encodeURIComponent(target)}`);
    const moved = await postForm(server.url, `${link}/reschedule`, { form_token: formTokenOf(confirm.text), start: target });
    expect(moved.status).toBe(409);
    expect(moved.text).toContain(
      'This meeting can no longer be moved here: changes close 30 hours before it starts. Please contact the host.',
    );
    const germanConfirm = await getPage(server.url, `${link}/reschedule?lang=de&start=${encodeURIComponent(target)}`);
    const verschoben = await postForm(server.url, `${link}/reschedule?lang=de`, {
      form_token: formTokenOf(germanConfirm.text),
      start: target,
    });
    expect(verschoben.status).toBe(409);
    expect(verschoben.text).toContain('Änderungen sind nur bis 30 Stunden vor Beginn möglich.');
    expect(expectData(await api(server.url, `/v1/bookings/${before.uid}`, { token: TOKEN }))).toMatchObject({
      status: 'confirmed',
      start_at: start,
      version: 1,
    });
  });

  it('allow_reschedule false: no reschedule link, and a post is answered with the refusal, the booking unchanged', async () => {
    const fixedLink = await bookThroughPage('fixed-time', '2030-01-15T09:00:00.000Z');
    const fixedPage = await getPage(server.url, fixedLink);
    expect(fixedPage.status).toBe(200);
    expect(fixedPage.text).not.toContain('/reschedule');
    // The reschedule address shows the manage page, without a form to move it.
    const shown = await getPage(server.url, `${fixedLink}/reschedule?start=2030-01-15T10:00:00.000Z`);
    expect(shown.status).toBe(200);
    expect(shown.text).not.toContain('name="start"');

    // A page opened while moves were allowed, posted after the host turned them off.
    const start = '2030-01-15T09:30:00.000Z';
    const link = await bookThroughPage('movable', start);
    const [before] = await bookingsAt(start);
    const target = '2030-01-15T11:00:00.000Z';
    const confirm = await getPage(server.url, `${link}/reschedule?start=${encodeURIComponent(target)}`);
    const formToken = formTokenOf(confirm.text);
    const etag = (await api(server.url, `/v1/event-types/${TYPE.movable}`, { token: TOKEN })).headers.get('etag')!;
    const patched = await api(server.url, `/v1/event-types/${TYPE.movable}`, {
      method: 'PATCH',
      token: TOKEN,
      headers: { 'if-match': etag },
      json: { allow_reschedule: false },
    });
    expect(patched.status).toBe(200);
    const res = await postForm(server.url, `${link}/reschedule`, { form_token: formToken, start: target });
    expect(res.status).toBe(409);
    expect(res.text).toContain('This meeting cannot be rescheduled; you can cancel it.');
    expect(res.text).not.toContain(`href="${link}/reschedule"`);
    const after = expectData(await api(server.url, `/v1/bookings/${before.uid}`, { token: TOKEN }));
    expect(after).toMatchObject({ start_at: start, version: before.version, status: 'confirmed' });
  });
});

describe('booking_url in every front end', () => {
  const expected = (base: string) => ({
    [TYPE.intro]: `${base}/@hana/intro`,
    [TYPE.secret]: `${base}/@hana/secret-chat`,
    [TYPE.inner]: null,
    [TYPE.paused]: `${base}/@hana/paused`,
    [TYPE.fixed]: `${base}/@hana/fixed-time`,
    [TYPE.movable]: `${base}/@hana/movable`,
  });

  it('GET /v1/event-types and /v1/event-types/:id: absolute, null when private', async () => {
    const list = expectData(await api(server.url, '/v1/event-types?limit=100', { token: TOKEN })) as any[];
    const byId = Object.fromEntries(list.filter((t) => t.id in expected(server.url)).map((t) => [t.id, t.booking_url]));
    expect(byId).toEqual(expected(server.url));
    for (const [id, url] of Object.entries(expected(server.url))) {
      expect(expectData(await api(server.url, `/v1/event-types/${id}`, { token: TOKEN })).booking_url, id).toBe(url);
    }
    // Archived: null.
    expect(expectData(await api(server.url, `/v1/event-types/${TYPE.gone}`, { token: TOKEN })).booking_url).toBeNull();
  });

  it('MCP list_event_types says the same', async () => {
    let session: McpSession | undefined;
    try {
      session = await connectHttp(server.url, TOKEN);
      const data = toolData(await session.call('list_event_types', { limit: 100 }));
      const items = (data.items ?? data.data) as any[];
      const byId = Object.fromEntries(items.filter((t) => t.id in expected(server.url)).map((t) => [t.id, t.booking_url]));
      expect(byId).toEqual(expected(server.url));
    } finally {
      await session?.close();
    }
  });

  it('the CLI (remote) says the same', async () => {
    const env = { SCHEDULE_TOKEN: TOKEN };
    const list = await runCli(['event-types', 'list', '--json', '--all', '--api-url', server.url], { env });
    expect(list.code, list.stderr).toBe(0);
    const listed = jsonOf(list) as any[];
    const byId = Object.fromEntries(listed.filter((t) => t.id in expected(server.url)).map((t) => [t.id, t.booking_url]));
    expect(byId).toEqual(expected(server.url));
    const one = await runCli(['event-types', 'get', TYPE.inner, '--json', '--api-url', server.url], { env });
    expect(one.code, one.stderr).toBe(0);
    expect(jsonOf(one).booking_url).toBeNull();
  });
});

describe('the anonymous rate limit (TRUST_PROXY=1, PUBLIC_URL set, 30 a minute)', () => {
  let limited: TestServer;
  let limitedClock: MovableClock;

  beforeAll(async () => {
    limitedClock = movableClock();
    limitedClock.set(NOW);
    limited = await startInProcess(
      { workspace: writeWorkspace(workspaceWith({})), db: join(tempDir('schedule-page-rate-'), 'rate.db'), clock: limitedClock },
      { TRUST_PROXY: '1', PUBLIC_URL },
    );
  });
  afterAll(() => limited?.stop());

  it('the 31st page request in a minute is 429 with Retry-After; assets are not counted; another address has its own bucket', async () => {
    // The start of a minute: all 31 requests fall in one window.
    limitedClock.set(Date.parse('2030-01-07T07:00:00.000Z'));
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const first = await getPage(limited.url, '/@hana', from('203.0.113.7'));
    expect(first.status).toBe(200);
    const assets = [...first.text.matchAll(/(\/booking\/assets\/page\.[0-9a-f]+\.(?:css|js))/g)].map((m) => m[1]!);
    expect(assets).toHaveLength(2);
    const reset = String(Date.parse('2030-01-07T07:01:00.000Z') / 1000);
    expect([
      first.headers.get('x-ratelimit-limit'),
      first.headers.get('x-ratelimit-remaining'),
      first.headers.get('x-ratelimit-reset'),
    ]).toEqual(['30', '29', reset]);
    for (let i = 2; i <= 30; i++) {
      for (const asset of assets) expect((await getPage(limited.url, asset, from('203.0.113.7'))).status).toBe(200);
      const res = await getPage(limited.url, i % 2 === 0 ? '/@hana/intro' : '/@nobody', from('203.0.113.7'));
      expect(res.status, `request ${i}`).toBe(i % 2 === 0 ? 200 : 404);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(30 - i));
    }
    const refused = await getPage(limited.url, '/@hana', from('203.0.113.7'));
    expect(refused.status).toBe(429);
    // The seconds left in the window (the server's clock ticks on from the minute's start).
    const retryAfter = Number(refused.headers.get('retry-after'));
    const left = Math.ceil((Date.parse('2030-01-07T07:01:00.000Z') - limitedClock.now()) / 1000);
    expect([left, left + 1]).toContain(retryAfter);
    expect([
      refused.headers.get('x-ratelimit-limit'),
      refused.headers.get('x-ratelimit-remaining'),
      refused.headers.get('x-ratelimit-reset'),
    ]).toEqual(['30', '0', reset]);
    expect(refused.headers.get('content-security-policy')).toBe(CSP);
    expect(refused.text).toContain(`Too many requests from your address. Please wait ${retryAfter} seconds and try again.`);
    // A post counts too, and is refused before it is read.
    expect((await postForm(limited.url, '/@hana/intro/book', { start: '2030-01-08T09:00:00.000Z' }, from('203.0.113.7'))).status).toBe(429);
    // Assets still served to the limited address.
    expect((await getPage(limited.url, assets[0]!, from('203.0.113.7'))).status).toBe(200);
    // Another address, through the same proxy: a bucket of its own.
    const other = await getPage(limited.url, '/@hana', from('203.0.113.8'));
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('29');
    // The next minute: a fresh bucket.
    limitedClock.set(Date.parse('2030-01-07T07:01:00.000Z'));
    expect((await getPage(limited.url, '/@hana', from('203.0.113.7'))).status).toBe(200);
  });

  it('booking_url honours PUBLIC_URL', async () => {
    const res = expectData(await api(limited.url, `/v1/event-types/${TYPE.intro}`, { token: TOKEN }));
    expect(res.booking_url).toBe(`${PUBLIC_URL}/@hana/intro`);
    expect(expectData(await api(limited.url, `/v1/event-types/${TYPE.inner}`, { token: TOKEN })).booking_url).toBeNull();
  });
});

describe('the visitor principal reaches only its grant', () => {
  let store: Store;
  let deps: ExecuteDeps;

  beforeAll(async () => {
    store = await openStore(dbPath);
    deps = { store, clock, ids: randomIds, idempotencyLeaseMs: 60_000 } as unknown as ExecuteDeps;
  });
  afterAll(() => store?.close());

  const run = (name: string, principal: ReturnType<typeof visitorPrincipal>, call: Record<string, unknown> = {}) =>
    execute(
      deps,
      operationsByName[name as keyof typeof operationsByName],
      principal,
      { params: {}, query: {}, body: undefined, source: 'public', ...call },
      'req-visitor',
    );

  it.each([
    ['list_bookings', {}],
    ['whoami', {}],
    ['list_event_types', {}],
    ['list_webhooks', {}],
    ['update_booking', { params: { uid: IVAN_BOOKING }, body: { metadata: {} } }],
  ])('a booking visitor calling %s: insufficient_scope', async (name, call) => {
    await expect(run(name, visitorPrincipal({ kind: 'book', hostId: HANA }), call)).rejects.toMatchObject({ code: 'insufficient_scope' });
  });

  it('a manage visitor reading another booking: booking_not_found', async () => {
    const own = (await bookingsAt('2030-01-09T09:00:00.000Z'))[0];
    const manage = visitorPrincipal({ kind: 'manage', bookingUid: own.uid, eventTypeId: TYPE.secret });
    const read = await run('get_booking', manage, { params: { uid: own.uid } });
    expect((read.outcome.data as any).uid).toBe(own.uid);
    await expect(run('get_booking', manage, { params: { uid: IVAN_BOOKING } })).rejects.toMatchObject({ code: 'booking_not_found' });
    await expect(
      run('cancel_booking', manage, { params: { uid: IVAN_BOOKING }, body: {}, idempotencyKey: 'k-visitor-1' }),
    ).rejects.toMatchObject({
      code: 'booking_not_found',
    });
    // It may read bookings (its own, by uid), but acts for nobody: a list is empty, its own booking not in it.
    expect((await run('list_bookings', manage)).outcome.data).toEqual([]);
    await expect(run('whoami', manage)).rejects.toMatchObject({ code: 'insufficient_scope' });
  });

  it('a booking visitor of one host cannot book another host’s type', async () => {
    const principal = visitorPrincipal({ kind: 'book', hostId: HANA });
    await expect(
      run('list_slots', principal, {
        query: { username: 'ivan', event_slug: 'ivan-call', start: '2030-01-08T00:00:00Z', end: '2030-01-09T00:00:00Z' },
      }),
    ).rejects.toMatchObject({ code: 'event_type_not_found' });
  });
});
