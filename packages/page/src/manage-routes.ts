import {
  inviteUid,
  isScheduleError,
  manageLinkPath,
  type Principal,
  publicEventType,
  readManageLink,
  ScheduleError,
  signManageLink,
  storedEventCalendar,
  visitorPrincipal,
} from '@schedule/core';
import { checkedPost, monthView, takenNotice } from './book-routes.js';
import { googleCalendarLink, outlookCalendarLink } from './calendar-links.js';
import { issueFormToken } from './form-token.js';
import { isZone } from './format.js';
import { type Html, html } from './html.js';
import { localDate, type Slot } from './month.js';
import type { PageContext, PageRequest } from './page-deps.js';
import { hrefOf, type PageState, pageState } from './page-state.js';
import { field } from './read-form.js';
import { redirect, sendCalendar, sendPage } from './respond.js';
import { messagePage } from './views/booking-page.js';
import { calendar, zonePicker } from './views/calendar.js';
import { layout } from './views/layout.js';
import { type ManagedBooking, managePage, rescheduleForm } from './views/manage-page.js';

// The pages a manage link opens (docs/booking-page.md "Manage links"): the
// booking, and moving or canceling it. The link is the visitor's only
// credential: it names one booking, and the visitor may do with that
// booking what the event type allows, through the same operations `/v1` runs.

/** The booking as the API answers it, read as far as the page needs. */
interface ApiBooking {
  uid: string;
  version: number;
  event_type_id: string;
  event_type_slug: string;
  title: string;
  status: 'confirmed' | 'pending' | 'canceled' | 'declined';
  start_at: string;
  end_at: string;
  host: { username: string; email: string };
  attendees: { email: string; name: string; timezone: string }[];
  location: { type: string; url: string | null; value: string | null };
}

interface Managed {
  readonly token: string;
  readonly principal: Principal;
  readonly booking: ManagedBooking;
  readonly api: ApiBooking;
  readonly state: PageState;
  readonly path: string;
}

/** An expired link: 410, said in the visitor's language. */
function expiredPage(ctx: PageContext, r: PageRequest, path: string): number {
  const state = pageState(r.url.searchParams, r.req.headers['accept-language'], 'UTC');
  const m = state.messages;
  sendPage(
    r.req,
    r.res,
    410,
    layout(state, ctx.assets, { title: m.linkExpiredTitle, path, main: messagePage(m.linkExpiredTitle, m.linkExpired) }),
    state,
  );
  return 410;
}

/** Reads the link and the booking it names; undefined when the link has expired (answered already). */
async function managed(ctx: PageContext, r: PageRequest, token: string): Promise<Managed | undefined> {
  const path = manageLinkPath(token);
  const reading = readManageLink(await ctx.key(), token, r.nowMs);
  if (reading.kind === 'invalid') throw new ScheduleError('not_found', 'No such page.', {});
  if (reading.kind === 'expired') {
    expiredPage(ctx, r, path);
    return undefined;
  }
  const reader = visitorPrincipal({ kind: 'manage', bookingUid: reading.bookingUid });
  const api = (await ctx.call(
    'get_booking',
    reader,
    { params: { uid: reading.bookingUid }, query: {}, body: undefined },
    r.requestId,
  )) as ApiBooking;
  // Now that the booking is read, the grant reaches its event type too: the slots to move it to.
  const principal = visitorPrincipal({ kind: 'manage', bookingUid: api.uid, eventTypeId: api.event_type_id });
  const type = await publicEventType(ctx.deps.core.store.db, principal, api.host.username, api.event_type_slug);
  // A manage link (as mailed) carries no `tz`: times show in the zone the visitor booked in, else the host's.
  const bookedIn = api.attendees[0]?.timezone;
  const state = pageState(r.url.searchParams, r.req.headers['accept-language'], isZone(bookedIn) ? bookedIn : type.host.timezone);
  const booking: ManagedBooking = {
    uid: api.uid,
    title: type.name,
    hostName: type.host.name,
    attendeeEmail: api.attendees[0]?.email ?? '',
    start: api.start_at,
    end: api.end_at,
    status: api.status,
    hostZone: type.host.timezone,
    joinUrl: api.location.url,
    place: api.location.value,
    inPast: Date.parse(api.start_at) <= r.nowMs,
    allowReschedule: type.allowReschedule && type.bookable,
  };
  return { token, principal, booking, api, state, path };
}

const DONE = new Set(['booked', 'series', 'rescheduled', 'canceled']);

/** `GET /booking/:token`: the confirmation and manage page. */
export async function manageRoute(ctx: PageContext, r: PageRequest, token: string): Promise<number> {
  const found = await managed(ctx, r, token);
  return found ? showManage(ctx, r, found) : 410;
}

/** The manage page of a booking already read, perhaps with why the last post was refused (nothing was written then). */
async function showManage(ctx: PageContext, r: PageRequest, found: Managed, error?: { status: number; text: string }): Promise<number> {
  const { booking, state, path, api } = found;
  const doneParam = r.url.searchParams.get('done') ?? '';
  const done = DONE.has(doneParam) ? (doneParam as 'booked' | 'series' | 'rescheduled' | 'canceled') : undefined;
  const entry = {
    title: booking.title,
    start: booking.start,
    end: booking.end,
    details: `${booking.title}, ${state.messages.withHost(booking.hostName)}`,
    location: api.location.url ?? api.location.value ?? '',
  };
  const main = managePage(state, booking, {
    done,
    error: error?.text,
    rescheduleHref: hrefOf(state, `${path}/reschedule`),
    cancelAction: hrefOf(state, `${path}/cancel`),
    cancelToken: issueFormToken(await ctx.key(), `${path}/cancel`, r.nowMs),
    icsHref: `${path}/invite.ics`,
    googleHref: googleCalendarLink(entry),
    outlookHref: outlookCalendarLink(entry),
  });
  const report =
    done === undefined
      ? undefined
      : ({ event: done === 'series' ? 'booked' : done, uid: booking.uid, start: booking.start, end: booking.end } as const);
  const status = error?.status ?? 200;
  sendPage(r.req, r.res, status, layout(state, ctx.assets, { title: booking.title, path, main, report }), state);
  return status;
}

/** `GET /booking/:token/invite.ics`: the meeting as a calendar file, for calendars without a link above. */
export async function icsRoute(ctx: PageContext, r: PageRequest, token: string): Promise<number> {
  const found = await managed(ctx, r, token);
  if (!found) return 410;
  const { api, booking } = found;
  sendCalendar(
    r.req,
    r.res,
    storedEventCalendar({
      uid: inviteUid(api.uid),
      sequence: api.version,
      start: api.start_at,
      end: api.end_at,
      stamp: new Date(r.nowMs).toISOString(),
      summary: api.title,
      location: api.location.url ?? api.location.value ?? undefined,
      url: api.location.url ?? undefined,
      status: booking.status === 'canceled' || booking.status === 'declined' ? 'CANCELLED' : 'CONFIRMED',
      organizer: { email: api.host.email, name: booking.hostName },
      attendees: api.attendees.map((a) => ({ email: a.email, name: a.name, partstat: 'ACCEPTED' as const })),
    }),
  );
  return 200;
}

/** `GET /booking/:token/reschedule`: the calendar to pick a new time; with `?start=`, the confirmation of that time. */
export async function rescheduleRoute(ctx: PageContext, r: PageRequest, token: string): Promise<number> {
  const found = await managed(ctx, r, token);
  return found ? showReschedule(ctx, r, found) : 410;
}

/** The reschedule pages of a booking already read; `notice` says why the time asked for was not booked. */
async function showReschedule(ctx: PageContext, r: PageRequest, found: Managed, notice?: string): Promise<number> {
  const { booking, state, path, principal } = found;
  if (!booking.allowReschedule || booking.status !== 'confirmed' || booking.inPast) return showManage(ctx, r, found);
  const action = `${path}/reschedule`;
  const start = r.url.searchParams.get('start');
  const startMs = start === null || start.length > 40 ? Number.NaN : Date.parse(start);
  const m = state.messages;
  if (notice === undefined && !Number.isNaN(startMs)) {
    const duration = Date.parse(booking.end) - Date.parse(booking.start);
    const main = rescheduleForm(state, booking, {
      action: hrefOf(state, action),
      token: issueFormToken(await ctx.key(), action, r.nowMs),
      start: new Date(startMs).toISOString(),
      end: new Date(startMs + duration).toISOString(),
      backHref: hrefOf(state, action),
    });
    sendPage(
      r.req,
      r.res,
      200,
      layout(state, ctx.assets, { title: m.rescheduleTo, path: action, query: { start: start ?? undefined }, main }),
      state,
    );
    return 200;
  }
  const view = await monthView(ctx, r, principal, { event_type_id: found.api.event_type_id }, state, notice);
  const timeHref = (slot: Slot) => hrefOf(state, action, { start: slot.start });
  const status = notice === undefined ? 200 : 409;
  if (r.url.searchParams.get('fragment') === '1') {
    sendPage(r.req, r.res, status, calendar(state, action, view, timeHref), state);
    return status;
  }
  const main = layoutMain(state, booking, zonePicker(state, action, view), calendar(state, action, view, timeHref));
  sendPage(
    r.req,
    r.res,
    status,
    layout(state, ctx.assets, { title: m.rescheduleTitle, path: action, query: { month: view.month, date: view.date }, main }),
    state,
  );
  return status;
}

/** The reschedule calendar beside what is being moved and the zone its times show in, as on the booking page. */
function layoutMain(state: PageState, booking: ManagedBooking, zone: Html, picker: Html): Html {
  const m = state.messages;
  return html`<div class="columns">
<div class="about"><h1>${m.rescheduleTitle}</h1><p class="lead">${booking.title} · ${m.withHost(booking.hostName)}</p>${zone}</div>
${picker}
</div>`;
}

/** `POST /booking/:token/reschedule`: moves the meeting; a new link follows, as the old one ends with the old meeting. */
export async function moveRoute(ctx: PageContext, r: PageRequest, token: string): Promise<number> {
  const found = await managed(ctx, r, token);
  if (!found) return 410;
  const { state, path, principal, booking } = found;
  const action = `${path}/reschedule`;
  const { form, token: formToken, key } = await checkedPost(ctx, r, action);
  const m = state.messages;
  if (formToken === 'stale') return showManage(ctx, r, found, { status: 400, text: m.formExpired });
  const reason = field(form, 'reason')?.trim();
  const body = { start: field(form, 'start') ?? '', ...(reason ? { reason } : {}) };
  try {
    const moved = (await ctx.call(
      'reschedule_booking',
      principal,
      { params: { uid: booking.uid }, query: {}, body, idempotencyKey: key },
      r.requestId,
    )) as {
      uid: string;
      end_at: string;
    };
    const link = signManageLink(await ctx.key(), moved.uid, Date.parse(moved.end_at));
    redirect(r.res, hrefOf(state, manageLinkPath(link), { done: 'rescheduled' }));
    return 303;
  } catch (error) {
    if (!isScheduleError(error)) throw error;
    const taken = takenNotice(error, m);
    if (taken !== undefined) {
      const startMs = Date.parse(body.start);
      if (!Number.isNaN(startMs)) {
        const date = localDate(new Date(startMs).toISOString(), state.zone);
        r.url.searchParams.set('month', date.slice(0, 7));
        r.url.searchParams.set('date', date);
      }
      r.url.searchParams.delete('start');
      return showReschedule(ctx, r, found, taken);
    }
    return refusedOnManage(ctx, r, found, error, m);
  }
}

/** A refusal on the manage page itself: in the past, canceled, not allowed, inside the type's notice, or a value the operation would not take. */
function refusedOnManage(
  ctx: PageContext,
  r: PageRequest,
  found: Managed,
  error: ScheduleError,
  m: PageState['messages'],
): Promise<number> {
  // A form sent before with other details (another reason, another time): spent, as a stale form is.
  if (error.code === 'idempotency_key_conflict') return showManage(ctx, r, found, { status: 400, text: m.formExpired });
  const text =
    error.code === 'booking_in_past'
      ? m.inPast
      : error.code === 'booking_already_cancelled'
        ? m.alreadyCanceled
        : error.code === 'reschedule_not_allowed'
          ? m.noReschedule
          : error.code === 'cancel_notice'
            ? m.cancelNotice(m.noticeLength(Number(error.details.notice_minutes)))
            : error.code === 'reschedule_notice'
              ? m.rescheduleNotice(m.noticeLength(Number(error.details.notice_minutes)))
              : error.message;
  const status = error.code === 'validation_error' ? 400 : 409;
  return showManage(ctx, r, found, { status, text });
}

/** `POST /booking/:token/cancel`: cancels the meeting, with the reason given. */
export async function cancelRoute(ctx: PageContext, r: PageRequest, token: string): Promise<number> {
  const found = await managed(ctx, r, token);
  if (!found) return 410;
  const { state, path, principal, booking } = found;
  const { form, token: formToken, key } = await checkedPost(ctx, r, `${path}/cancel`);
  const m = state.messages;
  if (formToken === 'stale') return showManage(ctx, r, found, { status: 400, text: m.formExpired });
  const reason = field(form, 'reason')?.trim();
  try {
    await ctx.call(
      'cancel_booking',
      principal,
      { params: { uid: booking.uid }, query: {}, body: reason ? { reason } : {}, idempotencyKey: key },
      r.requestId,
    );
  } catch (error) {
    if (!isScheduleError(error)) throw error;
    return refusedOnManage(ctx, r, found, error, m);
  }
  redirect(r.res, hrefOf(state, path, { done: 'canceled' }));
  return 303;
}
