import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { api } from './support/http.js';
import { movableClock, startInProcess } from './support/in-process.js';
import { expectNoAxeViolations, focusedOutline, shoot, watchPage } from './support/page-audit.js';
import { type TestServer, writeWorkspace } from './support/serve.js';
import { type Received, startSmtpSink } from './support/smtp-sink.js';

// Issue 33, the booking page, in a real browser as a visitor meets it: a
// visitor in New York books a host in Berlin with the mouse (the script
// picks their zone), with JavaScript off (the zone form, links and posts),
// and with the keyboard alone; follows the mailed manage link to move the
// meeting and then cancel it; and every page state passes axe-core's WCAG
// 2.2 AA rules, reports no policy violation and fetches nothing from
// another origin.

const SECRET = 'pat_page_browser_host_0123';
const HOST = { username: 'hilde', name: 'Hilde Host', email: 'hilde@host.test' };
const TYPE = { id: '33000000-0000-4000-8000-0000000000e1', slug: 'consult', name: 'Consultation' };
/** Monday 23 November 2026, 08:00 in Berlin: the server's clock, so the month shown is the same any day the test runs. */
const NOW = Date.parse('2026-11-23T07:00:00Z');
const VISITOR_ZONE = 'America/New_York';
const DESKTOP = { width: 1100, height: 900 };
const MOBILE = { width: 390, height: 844 };
const BOOKING_PAGE = `/@${HOST.username}/${TYPE.slug}`;

const workspace = writeWorkspace({
  organization: { name: 'Page Browser Org' },
  // Each test plays many visitors' page views from one loopback address.
  limits: { anonymous_per_minute: 10_000 },
  users: [
    {
      id: '33000000-0000-4000-8000-00000000000a',
      username: HOST.username,
      email: HOST.email,
      name: HOST.name,
      timezone: 'Europe/Berlin',
      role: 'owner',
      schedule: {
        timezone: 'Europe/Berlin',
        weekly: {
          mon: [['09:00', '17:00']],
          tue: [['09:00', '17:00']],
          wed: [['09:00', '17:00']],
          thu: [['09:00', '17:00']],
          fri: [['09:00', '13:00']],
        },
      },
    },
  ],
  event_types: [
    {
      id: TYPE.id,
      owner: HOST.username,
      slug: TYPE.slug,
      name: TYPE.name,
      duration_minutes: 30,
      slot_interval_minutes: 30,
      minimum_notice_minutes: 60,
      future_limit_days: 60,
      recurring: 'on',
      allow_reschedule: true,
      questions: [
        { id: 'company', label: 'Company', type: 'text', required: true },
        { id: 'notes', label: 'Notes', type: 'long_text' },
        { id: 'plan', label: 'Plan', type: 'select', options: ['Basic', 'Pro'] },
        { id: 'topics', label: 'Topics', type: 'multi_select', options: ['Billing', 'Setup', 'Other'] },
        { id: 'newsletter', label: 'Send me the newsletter', type: 'boolean' },
        { id: 'seats', label: 'Seats', type: 'number' },
      ],
    },
  ],
  tokens: [{ name: 'hilde', user: HOST.username, secret: SECRET, scopes: ['bookings:read', 'series:read'] }],
});

/** The answers every booking gives, as typed and as the API stores them. */
const ANSWERS = { company: 'Acme GmbH', notes: 'Two things:\nprices and setup', plan: 'Pro', topics: ['Billing', 'Setup'], seats: '3' };
const STORED_RESPONSES = {
  company: 'Acme GmbH',
  notes: 'Two things:\nprices and setup',
  plan: 'Pro',
  topics: ['Billing', 'Setup'],
  newsletter: true,
  seats: 3,
};

const zoneOf = (page: Page) => new URL(page.url()).searchParams.get('tz');
/** One attribute of every element `selector` finds, in document order. */
const attributes = async (page: Page, selector: string, name: string) =>
  Promise.all((await page.locator(selector).all()).map((element) => element.getAttribute(name)));

describe('the booking page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const clock = movableClock();
  clock.set(NOW);

  beforeAll(async () => {
    sink = await startSmtpSink();
    [server, browser] = await Promise.all([
      startInProcess(
        { workspace, db: ':memory:', clock },
        { SMTP_URL: sink.url, MAIL_FROM: 'Schedule <mail@schedule.test>', MAIL_DISPATCH_MS: '50' },
      ),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.stop()]);
    await sink?.close();
  });

  async function open(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({ timezoneId: VISITOR_ZONE, locale: 'en-US', viewport: DESKTOP, ...options });
    // A step that cannot happen fails within the test's time, not after playwright's 30 s.
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    return { context, page, problems: watchPage(page, server.url).problems };
  }

  /** The host's bookings as the API lists them, the one with `email` as attendee. */
  async function bookingOf(email: string): Promise<any> {
    const listed = await api(server.url, '/v1/bookings?limit=100', { token: SECRET });
    expect(listed.status).toBe(200);
    const mine = listed.body.data.filter((b: any) => b.attendees[0]?.email === email);
    expect(mine, `bookings of ${email}`).toHaveLength(1);
    const one = await api(server.url, `/v1/bookings/${mine[0].uid}`, { token: SECRET });
    expect(one.status).toBe(200);
    return one.body.data;
  }

  /** The attendee's confirmation mail: its invite, and the manage link it carries. */
  async function manageLinkMailedTo(email: string, uid: string): Promise<string> {
    const mailTo = () => sink.received.filter((r: Received) => r.to.includes(email));
    await expect.poll(() => mailTo().length, { timeout: 10_000, interval: 50 }).toBe(1);
    const mail = mailTo()[0]!.parsed;
    expect(mail.subject).toBe(`Booked: ${TYPE.name} with ${HOST.name}`);
    expect(mail.attachments.map((a) => a.contentType)).toContain('application/ics');
    const lines = (mail.text ?? '').split('\n').filter((line) => line.startsWith('To reschedule or cancel: '));
    expect(lines).toHaveLength(1);
    const url = lines[0]!.slice('To reschedule or cancel: '.length).trim();
    // The link names the booking, when it stops working (its end, in seconds) and a signature.
    expect(url.startsWith(`${server.url}/booking/${uid}.`), url).toBe(true);
    expect(url.slice(`${server.url}/booking/${uid}.`.length)).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    return url;
  }

  /** Fills the form's answers with the mouse and the keyboard's typing. */
  async function fillForm(page: Page, name: string, email: string): Promise<void> {
    await page.fill('#name', name);
    await page.fill('#email', email);
    await page.fill('[id="q.company"]', ANSWERS.company);
    await page.fill('[id="q.notes"]', ANSWERS.notes);
    await page.selectOption('[id="q.plan"]', ANSWERS.plan);
    for (const topic of ANSWERS.topics) await page.getByLabel(topic, { exact: true }).check();
    await page.check('[id="q.newsletter"]');
    await page.fill('[id="q.seats"]', ANSWERS.seats);
  }

  /** Clicks the day's link and then its first time; returns the start that time's link carried. */
  async function pickTime(page: Page, date: string, js: boolean): Promise<string> {
    const day = page.locator(`a.day[href*="date=${date}"]`);
    if (js) {
      await day.click();
      // The script swaps the calendar in place: the address changes, the page does not reload.
      await page.waitForURL((url) => url.searchParams.get('date') === date);
    } else {
      await Promise.all([page.waitForURL((url) => url.searchParams.get('date') === date), day.click()]);
    }
    expect(zoneOf(page)).toBe(VISITOR_ZONE);
    const first = page.locator('a.time').first();
    const start = (await first.locator('time').getAttribute('datetime')) ?? '';
    // The host starts at 09:00 in Berlin, 03:00 in New York (both on standard time then).
    expect({ start, shown: await first.innerText() }).toEqual({ start: `${date}T08:00:00.000Z`, shown: '3:00 AM' });
    await Promise.all([page.waitForURL((url) => url.pathname.endsWith('/book')), first.click()]);
    expect(new URL(page.url()).searchParams.get('start')).toBe(start);
    return start;
  }

  /**
   * From the mailed link: moves the meeting to `newDate`'s first time, then
   * cancels it with a reason; the API shows each change.
   */
  async function rescheduleThenCancel(page: Page, link: string, email: string, newDate: string, js: boolean): Promise<void> {
    await page.goto(link);
    expect(await page.locator('h1').innerText()).toBe('Your booking');
    // The link carries no zone: the page shows the one the visitor booked in.
    expect(await page.locator('dl.summary dt').nth(1).innerText()).toBe(`Your time (${VISITOR_ZONE})`);
    await Promise.all([
      page.waitForURL((url) => url.pathname.endsWith('/reschedule')),
      page.getByRole('link', { name: 'Choose a new time' }).click(),
    ]);
    expect(await page.locator('#tz').inputValue()).toBe(VISITOR_ZONE);
    expect(await page.locator('.day-times .muted').innerText()).toBe(`Times are shown in ${VISITOR_ZONE}.`);
    const day = page.locator(`a.day[href*="date=${newDate}"]`);
    if (js) await day.click();
    else await Promise.all([page.waitForURL((url) => url.searchParams.get('date') === newDate), day.click()]);
    await page.waitForURL((url) => url.searchParams.get('date') === newDate);
    const first = page.locator('a.time').first();
    const newStart = (await first.locator('time').getAttribute('datetime')) ?? '';
    expect(newStart).toBe(`${newDate}T08:00:00.000Z`);
    await Promise.all([page.waitForURL((url) => url.searchParams.get('start') === newStart), first.click()]);
    expect(await submitReason(page, 'Clash with a flight', 'Confirm new time', 'rescheduled')).toBe('Your meeting has moved');
    const moved = await bookingOf(email);
    expect({ status: moved.status, start: moved.start_at }).toEqual({ status: 'confirmed', start: newStart });

    expect(await submitReason(page, 'No longer needed', 'Cancel meeting', 'canceled')).toBe('Your meeting is canceled');
    const canceled = await bookingOf(email);
    expect({ status: canceled.status, reason: canceled.cancellation_reason, start: canceled.start_at }).toEqual({
      status: 'canceled',
      reason: 'No longer needed',
      start: newStart,
    });
  }

  /** Types a reason, presses `button` and waits for the page it leads to (`?done=<done>`); returns that page's heading. */
  async function submitReason(page: Page, reason: string, button: string, done: string): Promise<string> {
    await page.fill('#reason', reason);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('done') === done),
      page.getByRole('button', { name: button }).click(),
    ]);
    return page.locator('h1').innerText();
  }

  /** Puts the calendar in the visitor's zone: by itself with the script, by the zone form without. */
  async function switchZone(page: Page, js: boolean): Promise<void> {
    if (js) {
      await page.waitForURL((url) => url.searchParams.get('tz') === VISITOR_ZONE);
    } else {
      expect(zoneOf(page)).toBeNull();
      await page.selectOption('#tz', VISITOR_ZONE);
      await Promise.all([
        page.waitForURL((url) => url.searchParams.get('tz') === VISITOR_ZONE),
        page.getByRole('button', { name: 'Change' }).click(),
      ]);
    }
    await expect.poll(() => page.locator('.day-times .muted').innerText()).toBe(`Times are shown in ${VISITOR_ZONE}.`);
  }

  /** Books through the page and checks what the API and the mail say, then moves and cancels it. */
  async function bookAndManage(page: Page, js: boolean, who: { name: string; email: string; date: string; newDate: string }) {
    await page.goto(`${server.url}${BOOKING_PAGE}`);
    await switchZone(page, js);
    const start = await pickTime(page, who.date, js);
    await fillForm(page, who.name, who.email);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('done') === 'booked'),
      page.getByRole('button', { name: 'Confirm booking' }).click(),
    ]);
    expect(await page.locator('h1').innerText()).toBe('You are booked');
    expect(await page.locator('dl.summary time').getAttribute('datetime')).toBe(start);

    const booking = await bookingOf(who.email);
    expect({
      status: booking.status,
      start: booking.start_at,
      attendee: booking.attendees[0],
      responses: booking.responses,
    }).toEqual({
      status: 'confirmed',
      start,
      attendee: { email: who.email, name: who.name, timezone: VISITOR_ZONE },
      responses: STORED_RESPONSES,
    });
    // One booking, not a series: the form's repeat stayed at "Does not repeat".
    const series = await api(server.url, '/v1/series', { token: SECRET });
    expect({ status: series.status, count: series.body.data.length }).toEqual({ status: 200, count: 0 });
    const link = await manageLinkMailedTo(who.email, booking.uid);
    await rescheduleThenCancel(page, link, who.email, who.newDate, js);
  }

  it('holds the chosen time while the form is filled: gone from a second visitor’s page, back when the first leaves (issue 34)', async () => {
    const date = '2026-12-01';
    const day = `${server.url}${BOOKING_PAGE}?month=2026-12&date=${date}&tz=${encodeURIComponent(VISITOR_ZONE)}`;
    const first = await open();
    const second = await open();
    try {
      await first.page.goto(day);
      const start = `${date}T08:00:00.000Z`;
      const time = first.page.locator('a.time').first();
      expect(await time.locator('time').getAttribute('datetime')).toBe(start);
      await Promise.all([first.page.waitForURL((url) => url.pathname.endsWith('/book')), time.click()]);
      // The script holds the time and says until when: ten minutes after the server's now.
      await expect.poll(() => first.page.locator('#held').innerText()).toBe('This time is held for you until 2:10 AM.');
      const shownTo = async () => {
        await second.page.goto(day);
        const times = second.page.locator('a.time time');
        return Promise.all((await times.all()).map((time) => time.getAttribute('datetime')));
      };
      expect(await shownTo()).not.toContain(start);
      expect(await shownTo()).toContain(`${date}T08:30:00.000Z`);
      // The first visitor goes back without booking: the page releases the hold as it leaves.
      await Promise.all([
        first.page.waitForURL((url) => !url.pathname.endsWith('/book')),
        first.page.getByRole('link', { name: 'Back' }).click(),
      ]);
      await expect.poll(shownTo, { timeout: 10_000, interval: 100 }).toContain(start);
      expect([...first.problems, ...second.problems]).toEqual([]);
    } finally {
      await Promise.all([first.context.close(), second.context.close()]);
    }
  });

  it('books with the mouse in the visitor’s own zone, then moves and cancels it from the mailed link', async () => {
    const { context, page, problems } = await open();
    await bookAndManage(page, true, { name: 'Ada Mouse', email: 'ada@guest.test', date: '2026-11-24', newDate: '2026-11-25' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('does the same with JavaScript off: the zone form, links and form posts', async () => {
    const { context, page, problems } = await open({ javaScriptEnabled: false });
    await bookAndManage(page, false, { name: 'Nora Noscript', email: 'nora@guest.test', date: '2026-11-26', newDate: '2026-11-30' });
    expect(problems).toEqual([]);
    await context.close();
  });

  /** Presses Tab until `selector` has focus, expecting every element passed on the way to show its focus. */
  async function tabTo(page: Page, selector: string, seen: string[]): Promise<void> {
    for (let presses = 0; presses < 60; presses++) {
      await page.keyboard.press('Tab');
      const focus = await focusedOutline(page);
      expect(focus.visible, `focus on ${focus.element} shows no outline (${focus.outline})`).toBe(true);
      seen.push(focus.element);
      if ((await page.locator(`:is(${selector}):focus`).count()) === 1) return;
    }
    throw new Error(`Tab never reached ${selector}; passed ${seen.join(', ')}`);
  }

  it('books with the keyboard alone, the focus visible at every step and moved to the day’s times', async () => {
    const { context, page, problems } = await open();
    const seen: string[] = [];
    const date = '2026-11-27';
    await page.goto(`${server.url}${BOOKING_PAGE}`);
    await switchZone(page, true);
    await tabTo(page, `a.day[href*="date=${date}"]`, seen);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('date') === date);
    // The script swapped in the day's times and moved focus to their heading, which shows it.
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id ?? '')).toBe('day-title');
    const heading = await focusedOutline(page);
    expect(heading.visible, `the day heading's focus shows no outline (${heading.outline})`).toBe(true);
    // The next Tab is the day's first time.
    await page.keyboard.press('Tab');
    const first = await page.locator(':focus time').getAttribute('datetime');
    expect(first).toBe(`${date}T08:00:00.000Z`);
    expect((await focusedOutline(page)).visible).toBe(true);
    await Promise.all([page.waitForURL((url) => url.pathname.endsWith('/book')), page.keyboard.press('Enter')]);

    const type = async (selector: string, text: string) => {
      await tabTo(page, selector, seen);
      await page.keyboard.type(text);
    };
    await type('#name', 'Kai Keys');
    await type('#email', 'kai@guest.test');
    await type('[id="q.company"]', ANSWERS.company);
    await tabTo(page, '[id="q.notes"]', seen);
    await page.keyboard.type('Two things:');
    await page.keyboard.press('Enter');
    await page.keyboard.type('prices and setup');
    await tabTo(page, '[id="q.plan"]', seen);
    // A closed select steps through its options with the arrow keys: Choose one, Basic, Pro.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('[id="q.plan"]').inputValue()).toBe('Pro');
    for (const checkbox of ['[id="q.topics.0"]', '[id="q.topics.1"]', '[id="q.newsletter"]']) {
      await tabTo(page, checkbox, seen);
      await page.keyboard.press('Space');
    }
    await type('[id="q.seats"]', ANSWERS.seats);
    await tabTo(page, 'button[value="book"]', seen);
    // The honeypot is never reached.
    expect(seen).not.toContain('input#website');
    await Promise.all([page.waitForURL((url) => url.searchParams.get('done') === 'booked'), page.keyboard.press('Enter')]);
    expect(await page.locator('h1').innerText()).toBe('You are booked');
    const booking = await bookingOf('kai@guest.test');
    expect({ status: booking.status, start: booking.start_at, responses: booking.responses }).toEqual({
      status: 'confirmed',
      start: first,
      responses: STORED_RESPONSES,
    });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('every page state passes axe-core’s WCAG 2.2 AA rules, with no policy violation or request elsewhere', async () => {
    const { context, page, problems } = await open();
    const shots: string[] = [];
    /** Axe and a screenshot at the desktop width; with `mobile`, a screenshot at the phone width too. */
    const audit = async (state: string, mobile = false) => {
      await expectNoAxeViolations(page, `${state} (desktop)`);
      shots.push(await shoot(page, `${state}-desktop`));
      if (!mobile) return;
      await page.setViewportSize(MOBILE);
      shots.push(await shoot(page, `${state}-mobile`));
      await page.setViewportSize(DESKTOP);
    };
    const date = '2026-11-30';

    expect((await page.goto(`${server.url}/@${HOST.username}`))?.status()).toBe(200);
    expect(await page.locator('a.type').innerText()).toContain(TYPE.name);
    await audit('host-list');

    await page.goto(`${server.url}${BOOKING_PAGE}`);
    await switchZone(page, true);
    await audit('booking-month', true);
    await page.locator(`a.day[href*="date=${date}"]`).click();
    await page.waitForURL((url) => url.searchParams.get('date') === date);
    await audit('booking-day', true);

    await Promise.all([page.waitForURL((url) => url.pathname.endsWith('/book')), page.locator('a.time').first().click()]);
    await audit('form', true);

    await page.fill('#name', 'Axel Audit');
    await page.fill('#email', 'not-an-email');
    const [invalid] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: 'Confirm booking' }).click(),
    ]);
    expect(invalid.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.locator('#email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#email').getAttribute('aria-describedby')).toBe('email-error');
    // The API refuses the first problem it meets: the email; the empty Company is reported once that is fixed.
    expect(await attributes(page, '.field-error', 'id')).toEqual(['email-error']);
    expect(await attributes(page, '#form-errors a', 'href')).toEqual(['#email']);
    // Each link of the error list names its field.
    expect(await page.locator('#form-errors a').allInnerTexts()).toEqual([
      'Email: Please enter an email address, such as name@example.com.',
    ]);
    await audit('form-errors', true);

    await page.fill('#email', 'axel@guest.test');
    await page.fill('[id="q.company"]', ANSWERS.company);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('done') === 'booked'),
      page.getByRole('button', { name: 'Confirm booking' }).click(),
    ]);
    expect(await page.locator('h1').innerText()).toBe('You are booked');
    await audit('confirmation');

    const manage = new URL(page.url());
    manage.search = '';
    await page.goto(manage.href);
    expect(await page.locator('h1').innerText()).toBe('Your booking');
    await audit('manage');

    await page.goto(`${manage.href}/reschedule`);
    expect(await page.locator('h1').innerText()).toBe('Choose a new time');
    await audit('reschedule-calendar');
    await page.locator('a.day[href*="date=2026-11-26"]').click();
    await page.waitForURL((url) => url.searchParams.get('date') === '2026-11-26');
    await audit('reschedule-day');
    await Promise.all([page.waitForURL((url) => url.searchParams.has('start')), page.locator('a.time').first().click()]);
    expect(await page.locator('h1').innerText()).toBe('Move the meeting to');
    await audit('reschedule-confirm');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('done') === 'rescheduled'),
      page.getByRole('button', { name: 'Confirm new time' }).click(),
    ]);
    await audit('rescheduled');
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('done') === 'canceled'),
      page.getByRole('button', { name: 'Cancel meeting' }).click(),
    ]);
    expect(await page.locator('h1').innerText()).toBe('Your meeting is canceled');
    await audit('canceled');

    // Without the script the zone form shows its button: audited too. Axe needs script in the page, so the page's own script is
    // served empty rather than JavaScript turned off.
    const noScript = await open();
    await noScript.context.route('**/booking/assets/page.*.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }),
    );
    await noScript.page.goto(`${server.url}${BOOKING_PAGE}?date=${date}`);
    expect(await noScript.page.getByRole('button', { name: 'Change' }).isVisible()).toBe(true);
    await expectNoAxeViolations(noScript.page, 'booking day without the script');
    shots.push(await shoot(noScript.page, 'booking-day-noscript-desktop'));
    expect(noScript.problems).toEqual([]);
    await noScript.context.close();

    // The one error the console shows is the form refused with 400, as it should be.
    expect(problems).toEqual([
      `console error: Failed to load resource: the server responded with a status of 400 (Bad Request) (${server.url}${BOOKING_PAGE}/book?tz=America%2FNew_York)`,
    ]);
    console.log(`screenshots:\n${shots.join('\n')}`);
    await context.close();
  });
});
