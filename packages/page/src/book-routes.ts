import {
  bookingHost,
  bookingPagePath,
  isScheduleError,
  manageLinkPath,
  type Principal,
  type PublicEventType,
  publicEventType,
  publicHostPage,
  ScheduleError,
  signManageLink,
  visitorPrincipal,
} from '@schedule/core';
import { bookingBody, fieldErrors, formValues, seriesBody } from './booking-body.js';
import { issueFormToken, readFormToken } from './form-token.js';
import { timeOf } from './format.js';
import { dateIn, localDate, monthOf, monthQueries, type Slot, shiftMonth, slotsByDay } from './month.js';
import type { PageContext, PageRequest } from './page-deps.js';
import { hrefOf, type PageState, pageState } from './page-state.js';
import { type FormFields, field, readForm } from './read-form.js';
import { redirect, sendJson, sendPage } from './respond.js';
import { fromOwnPage } from './same-origin.js';
import { bookingForm, EMPTY_FORM, type FormValues, type PreviewShown, previewDate } from './views/booking-form.js';
import { bookingPage } from './views/booking-page.js';
import { calendar, type MonthView } from './views/calendar.js';
import { hostPage } from './views/host-page.js';
import { layout } from './views/layout.js';

// The pages of booking: a host's list, an event type's calendar, its form,
// and the post that books. Each asks core, as the visitor, through the same
// operations `/v1` runs (visitor-calls.ts).

const notFound = () => new ScheduleError('not_found', 'No such page.', {});

/** The visitor of a host's booking pages, or 404 for a host that does not book. */
async function visitorOf(ctx: PageContext, username: string): Promise<Principal> {
  const host = await bookingHost(ctx.deps.core.store.db, username);
  if (!host) throw notFound();
  return visitorPrincipal({ kind: 'book', hostId: host.id });
}

/** `GET /@:username`. */
export async function hostRoute(ctx: PageContext, r: PageRequest, username: string): Promise<number> {
  const found = await publicHostPage(ctx.deps.core.store.db, username);
  if (!found) throw notFound();
  const state = pageState(r.url.searchParams, r.req.headers['accept-language'], found.host.timezone);
  const path = bookingPagePath(username);
  const main = hostPage(state, found.host, found.eventTypes);
  sendPage(r.req, r.res, 200, layout(state, ctx.assets, { title: state.messages.eventTypesOf(found.host.name), path, main }), state);
  return 200;
}

interface EventTypePage {
  readonly principal: Principal;
  readonly type: PublicEventType;
  readonly state: PageState;
  readonly path: string;
}

/** An event type's page as the visitor sees it, with the zone they chose or the host's. */
async function eventTypePage(ctx: PageContext, r: PageRequest, username: string, slug: string): Promise<EventTypePage> {
  const principal = await visitorOf(ctx, username);
  const type = await publicEventType(ctx.deps.core.store.db, principal, username, slug);
  const state = pageState(r.url.searchParams, r.req.headers['accept-language'], type.host.timezone);
  return { principal, type, state, path: bookingPagePath(username, slug) };
}

/** The free starts of a window, as `GET /v1/slots` answers them in the visitor's zone. */
export async function slotsBetween(
  ctx: PageContext,
  r: PageRequest,
  principal: Principal,
  eventType: Record<string, string>,
  window: { startMs: number; endMs: number },
  zone: string,
): Promise<Slot[]> {
  const query = { ...eventType, start: new Date(window.startMs).toISOString(), end: new Date(window.endMs).toISOString(), timezone: zone };
  const answer = (await ctx.call('list_slots', principal, { params: {}, query, body: undefined }, r.requestId)) as { slots: Slot[] };
  return answer.slots;
}

/**
 * A month of the calendar: the month asked for (else this one, or the next
 * when this one has no free day left), its free days, and the chosen day
 * (else the first free one).
 */
export async function monthView(
  ctx: PageContext,
  r: PageRequest,
  principal: Principal,
  eventType: Record<string, string>,
  state: PageState,
  notice?: string,
): Promise<MonthView> {
  const asked = r.url.searchParams.get('month') ?? undefined;
  const askedDate = r.url.searchParams.get('date') ?? undefined;
  const month = async (text: string | undefined) => {
    const window = monthOf(text, state.zone, r.nowMs);
    const halves = await Promise.all(
      monthQueries(window, state.zone).map((w) => slotsBetween(ctx, r, principal, eventType, w, state.zone)),
    );
    return { window, days: slotsByDay(halves.flat(), state.zone) };
  };
  let shown = await month(asked ?? askedDate?.slice(0, 7));
  if (asked === undefined && askedDate === undefined && shown.days.size === 0) {
    // The calendar month after, not 32 days on: from January 31 that would be March.
    const next = await month(shiftMonth(shown.window.month, state.zone, 1));
    if (next.days.size > 0) shown = next;
  }
  const thisMonth = monthOf(undefined, state.zone, r.nowMs).month;
  const last = monthOf('9999-12', state.zone, r.nowMs).month;
  const dateAsked = dateIn(askedDate, shown.window.month);
  return {
    month: shown.window.month,
    days: shown.days,
    date: dateAsked ?? [...shown.days.keys()][0],
    hasPrevious: shown.window.month !== thisMonth,
    hasNext: shown.window.month !== last,
    notice,
  };
}

/** `GET /@:username/:slug`: the calendar; `?fragment=1` only the part a script swaps when month or day change. */
export async function eventTypeRoute(ctx: PageContext, r: PageRequest, username: string, slug: string): Promise<number> {
  return showEventType(ctx, r, await eventTypePage(ctx, r, username, slug));
}

/** An event type's page already read; `notice` says why the time posted was not booked. */
async function showEventType(ctx: PageContext, r: PageRequest, page: EventTypePage, notice?: string): Promise<number> {
  const { principal, type, state, path } = page;
  const ref = { username: type.host.username, event_slug: type.slug };
  const view = type.bookable ? await monthView(ctx, r, principal, ref, state, notice) : emptyView();
  const timeHref = (slot: Slot) => hrefOf(state, `${path}/book`, { start: slot.start });
  const status = notice === undefined ? 200 : 409;
  // A type that takes no bookings has no calendar to swap: its whole page says so.
  if (r.url.searchParams.get('fragment') === '1' && type.bookable) {
    sendPage(r.req, r.res, status, calendar(state, path, view, timeHref), state);
    return status;
  }
  const main = bookingPage(state, type, path, view, timeHref);
  const query = { month: view.month, date: view.date };
  sendPage(r.req, r.res, status, layout(state, ctx.assets, { title: `${type.name} · ${type.host.name}`, path, query, main }), state);
  return status;
}

function emptyView(): MonthView {
  return { month: '', days: new Map(), date: undefined, hasPrevious: false, hasNext: false };
}

/** The start a form names: an instant the operation will judge; a nonsense one sends the visitor back to the calendar. */
function startOf(text: string | undefined): string | undefined {
  if (text === undefined || text.length > 40) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

interface FormRender {
  /**
   * The form's nonce when it is shown again after a post: its hold stays the
   * visitor's own (holds/holder.ts), and a post refused leaves the key
   * unspent (only successes are remembered), so the next post may use it.
   */
  readonly nonce?: string | undefined;
  readonly values: FormValues;
  readonly errors: ReadonlyMap<string, string>;
  readonly preview?: PreviewShown | undefined;
  readonly status: number;
}

async function renderForm(
  ctx: PageContext,
  r: PageRequest,
  page: { type: PublicEventType; state: PageState; path: string },
  start: string,
  shown: FormRender,
): Promise<number> {
  const { type, state, path } = page;
  const action = `${path}/book`;
  const end = new Date(Date.parse(start) + type.durationMinutes * 60_000).toISOString();
  const date = localDate(start, state.zone);
  const main = bookingForm(state, type, {
    action: hrefOf(state, action),
    holdAction: hrefOf(state, `${action}/hold`),
    releaseAction: hrefOf(state, `${action}/release`),
    token: issueFormToken(await ctx.key(), action, r.nowMs, shown.nonce),
    start,
    end,
    values: shown.values,
    errors: shown.errors,
    preview: shown.preview,
    backHref: hrefOf(state, path, { month: date.slice(0, 7), date }),
  });
  const title = `${type.name} · ${type.host.name}`;
  sendPage(r.req, r.res, shown.status, layout(state, ctx.assets, { title, path: action, query: { start }, main }), state);
  return shown.status;
}

/** `GET /@:username/:slug/book?start=…`: the form for one time. */
export async function formRoute(ctx: PageContext, r: PageRequest, username: string, slug: string): Promise<number> {
  const page = await eventTypePage(ctx, r, username, slug);
  const start = startOf(r.url.searchParams.get('start') ?? undefined);
  if (start === undefined || !page.type.bookable) return showEventType(ctx, r, page);
  return renderForm(ctx, r, page, start, { values: EMPTY_FORM, errors: new Map(), status: 200 });
}

/** Checks a posted form came from one of the page's own documents, and reads its token: the post's idempotency key. */
export async function checkedPost(
  ctx: PageContext,
  r: PageRequest,
  action: string,
): Promise<{ form: FormFields; token: 'valid' | 'stale'; key: string | undefined; nonce: string | undefined }> {
  if (!fromOwnPage(r.req, new URL(ctx.deps.publicUrl).origin)) {
    throw new ScheduleError('forbidden', 'A form is accepted only from this site’s own pages.', {});
  }
  const form = await readForm(r.req);
  const reading = readFormToken(await ctx.key(), field(form, 'form_token'), action, r.nowMs);
  return reading.kind === 'valid'
    ? { form, token: 'valid', key: `page:${reading.nonce}`, nonce: reading.nonce }
    : { form, token: 'stale', key: undefined, nonce: undefined };
}

/** `POST /@:username/:slug/book`: books one meeting or a series, or previews the series. */
export async function bookRoute(ctx: PageContext, r: PageRequest, username: string, slug: string): Promise<number> {
  const page = await eventTypePage(ctx, r, username, slug);
  const { type, state, path } = page;
  const { form, token, key, nonce } = await checkedPost(ctx, r, `${path}/book`);
  const principal = formHolder(page.principal, nonce);
  const start = startOf(field(form, 'start'));
  if (start === undefined) return showEventType(ctx, r, page);
  const values = formValues(form, type);
  const m = state.messages;
  if (token === 'stale') return renderForm(ctx, r, page, start, { nonce, values, errors: new Map([['form', m.formExpired]]), status: 400 });
  // A filled honeypot is a robot: nothing is booked, and it is told no more than a person would be.
  if ((field(form, 'website') ?? '') !== '')
    return renderForm(ctx, r, page, start, { nonce, values, errors: new Map([['form', m.fieldInvalid]]), status: 400 });
  const series = type.recurring && values.repeat !== 'none';
  try {
    if (field(form, 'action') === 'preview') {
      if (!series) return renderForm(ctx, r, page, start, { nonce, values, errors: new Map(), status: 200 });
      const body = seriesBody(type, values, start, state.zone);
      const answer = (await ctx.call('preview_series', principal, { params: {}, query: {}, body }, r.requestId)) as {
        occurrences: { start_at: string; end_at: string }[];
        skipped: { start_at: string }[];
      };
      const duration = type.durationMinutes * 60_000;
      const preview = {
        booked: answer.occurrences.map((o) => previewDate(state, o.start_at, o.end_at)),
        skipped: answer.skipped.map((s) => previewDate(state, s.start_at, new Date(Date.parse(s.start_at) + duration).toISOString())),
      };
      return renderForm(ctx, r, page, start, { nonce, values, errors: new Map(), preview, status: 200 });
    }
    const booked = series
      ? await bookSeries(ctx, r, principal, seriesBody(type, values, start, state.zone), key)
      : await bookOne(ctx, r, principal, bookingBody(type, values, start, state.zone), key);
    const link = signManageLink(await ctx.key(), booked.uid, Date.parse(booked.end));
    redirect(r.res, hrefOf(state, manageLinkPath(link), { done: series ? 'series' : 'booked' }));
    return 303;
  } catch (error) {
    if (!isScheduleError(error)) throw error;
    const taken = takenNotice(error, m);
    if (taken !== undefined) {
      // A stale page offered a time that is gone: fresh times for that day, and why.
      const date = localDate(start, state.zone);
      r.url.searchParams.set('month', date.slice(0, 7));
      r.url.searchParams.set('date', date);
      r.url.searchParams.delete('fragment');
      return showEventType(ctx, r, page, taken);
    }
    // The form was sent before with other details: its token is spent, as a stale one is; a fresh form lets the visitor send again.
    if (error.code === 'idempotency_key_conflict') {
      return renderForm(ctx, r, page, start, { values, errors: new Map([['form', m.formExpired]]), status: 400 });
    }
    if (error.code === 'no_dates_free') {
      return renderForm(ctx, r, page, start, { nonce, values, errors: new Map([['form', m.noDatesFree]]), status: 422 });
    }
    if (['validation_error', 'attendee_email_invalid', 'count_out_of_range'].includes(error.code)) {
      return renderForm(ctx, r, page, start, { nonce, values, errors: fieldErrors(error, m), status: 400 });
    }
    throw error;
  }
}

/** The notice for a time that cannot be booked any more, or undefined for another refusal. */
export function takenNotice(error: ScheduleError, m: PageState['messages']): string | undefined {
  switch (error.code) {
    case 'slot_unavailable':
    case 'slot_lock_timeout':
      return m.justTaken;
    case 'slot_in_past':
      return m.slotPast;
    case 'event_type_inactive':
      return m.inactive;
    default:
      return undefined;
  }
}

async function bookOne(ctx: PageContext, r: PageRequest, principal: Principal, body: Record<string, unknown>, key: string | undefined) {
  const create = (sent: Record<string, unknown>) =>
    ctx.call('create_booking', principal, { params: {}, query: {}, body: sent, idempotencyKey: key }, r.requestId) as Promise<{
      uid: string;
      end_at: string;
    }>;
  let booking: { uid: string; end_at: string };
  try {
    booking = await create(body);
  } catch (error) {
    // The hold ran out (the form sat open too long) or is not this form's: the time may still be free, so book without it.
    if (!(isScheduleError(error) && HOLD_REFUSALS.has(error.code) && body.hold_id !== undefined)) throw error;
    const { hold_id: _, ...unheld } = body;
    booking = await create(unheld);
  }
  return { uid: booking.uid, end: booking.end_at };
}

const HOLD_REFUSALS: ReadonlySet<string> = new Set(['hold_not_found', 'hold_expired', 'hold_mismatch']);

/**
 * The visitor as the holder of the form whose token carries `nonce`: the
 * hold its page made is its own (core holds/holder.ts). Every visitor of a
 * host shares one principal; the nonce tells one form's visitor apart.
 */
function formHolder(principal: Principal, nonce: string | undefined): Principal {
  const { credential } = principal;
  if (nonce === undefined || credential.kind !== 'visitor' || credential.grant.kind !== 'book') return principal;
  return visitorPrincipal({ ...credential.grant, holder: nonce });
}

/**
 * `POST /@:username/:slug/book/hold`: the script holds the form's time while
 * the visitor fills it in (docs/booking-page.md "Holds"). Answers JSON for
 * the script: the hold and a sentence saying until when, or why not.
 */
export async function holdRoute(ctx: PageContext, r: PageRequest, username: string, slug: string): Promise<number> {
  const page = await eventTypePage(ctx, r, username, slug);
  const { nonce, form } = await checkedPost(ctx, r, `${page.path}/book`);
  const start = startOf(field(form, 'start'));
  if (nonce === undefined || start === undefined) return sendJson(r.res, 400, { error: 'form_expired' });
  const body = { event_type_id: page.type.id, start, ttl_seconds: PAGE_HOLD_SECONDS };
  try {
    const hold = (await ctx.call(
      'create_hold',
      formHolder(page.principal, nonce),
      { params: {}, query: {}, body, idempotencyKey: `page-hold:${nonce}` },
      r.requestId,
    )) as {
      id: string;
      expires_at: string;
    };
    const until = timeOf(hold.expires_at, page.state.zone, page.state.locale);
    return sendJson(r.res, 201, { hold_id: hold.id, expires_at: hold.expires_at, message: page.state.messages.heldUntil(until) });
  } catch (error) {
    if (!isScheduleError(error)) throw error;
    // Not held (taken meanwhile, or the visitor's address holds too many): the form still books if the time is free.
    return sendJson(r.res, 409, { error: error.code });
  }
}

/** `POST /@:username/:slug/book/release`: the visitor left the form; its hold frees the time at once. Always 204: a beacon reads no answer. */
export async function releaseRoute(ctx: PageContext, r: PageRequest, username: string, slug: string): Promise<number> {
  const page = await eventTypePage(ctx, r, username, slug);
  const { nonce, form } = await checkedPost(ctx, r, `${page.path}/book`);
  const id = field(form, 'hold_id') ?? '';
  if (nonce !== undefined && id !== '') {
    try {
      await ctx.call('release_hold', formHolder(page.principal, nonce), { params: { id }, query: {}, body: undefined }, r.requestId);
    } catch (error) {
      if (!isScheduleError(error)) throw error;
    }
  }
  r.res.statusCode = 204;
  r.res.setHeader('Cache-Control', 'no-store');
  r.res.end();
  return 204;
}

/** How long the page holds a time: ten minutes to fill the form, the API's default. */
export const PAGE_HOLD_SECONDS = 600;

async function bookSeries(ctx: PageContext, r: PageRequest, principal: Principal, body: Record<string, unknown>, key: string | undefined) {
  const made = (await ctx.call('create_series', principal, { params: {}, query: {}, body, idempotencyKey: key }, r.requestId)) as {
    occurrences: { uid: string; end_at: string }[];
  };
  // The confirmation shows the first meeting; each has its own manage link in its own mail.
  const first = made.occurrences[0];
  if (!first) throw new ScheduleError('no_dates_free', 'None of the dates is free.', {});
  return { uid: first.uid, end: first.end_at };
}
