import { meetingIn } from '../format.js';
import { type Html, html } from '../html.js';
import type { PageState } from '../page-state.js';

/** A booking as the holder of its manage link sees it: no host-only field. */
export interface ManagedBooking {
  readonly uid: string;
  readonly title: string;
  readonly hostName: string;
  readonly attendeeEmail: string;
  readonly start: string;
  readonly end: string;
  readonly status: 'confirmed' | 'pending' | 'canceled' | 'declined';
  readonly hostZone: string;
  readonly joinUrl: string | null;
  readonly place: string | null;
  readonly inPast: boolean;
  readonly allowReschedule: boolean;
}

export interface ManageView {
  /** What just happened, for the heading: the booking made, moved or canceled. */
  readonly done: 'booked' | 'series' | 'rescheduled' | 'canceled' | undefined;
  readonly rescheduleHref: string;
  readonly cancelAction: string;
  readonly cancelToken: string;
  readonly icsHref: string;
  readonly googleHref: string;
  readonly outlookHref: string;
  readonly error?: string | undefined;
}

/** The confirmation and manage page: the meeting in both zones, calendar links, reschedule and cancel. */
export function managePage(state: PageState, booking: ManagedBooking, view: ManageView): Html {
  const m = state.messages;
  const heading = {
    booked: m.booked,
    series: m.bookedSeries,
    rescheduled: m.rescheduled,
    canceled: m.canceled,
  }[view.done ?? 'booked'];
  const live = booking.status === 'confirmed' && !booking.inPast;
  // A request awaiting the host: no invitation to add yet, nor a move; the visitor may still withdraw it.
  const waiting = booking.status === 'pending' && !booking.inPast;
  const justBooked = view.done === 'booked' || view.done === 'series';
  return html`<h1>${view.done ? (booking.status === 'pending' && justBooked ? m.requested : heading) : m.manageTitle}</h1>
${view.error ? html`<p class="notice" role="alert">${view.error}</p>` : ''}
${justBooked ? html`<p role="status">${booking.status === 'pending' ? m.requestSent(booking.attendeeEmail) : m.mailSent(booking.attendeeEmail)}</p>` : ''}
${waiting ? html`<p>${m.awaitingHost(booking.hostName)}</p>` : ''}
<dl class="summary">
<div><dt>${booking.title}</dt><dd>${m.withHost(booking.hostName)}</dd></div>
<div><dt>${m.yourTime(state.zone)}</dt><dd><time datetime="${booking.start}">${meetingIn(booking.start, booking.end, state.zone, state.locale)}</time></dd></div>
${
  booking.hostZone === state.zone
    ? ''
    : html`<div><dt>${m.hostTime(booking.hostZone)}</dt><dd>${meetingIn(booking.start, booking.end, booking.hostZone, state.locale)}</dd></div>`
}
${booking.joinUrl && live ? html`<div><dt>${m.where}</dt><dd><a href="${booking.joinUrl}" rel="noopener noreferrer">${m.joinAt}</a></dd></div>` : ''}
${booking.place && live ? html`<div><dt>${m.where}</dt><dd>${booking.place}</dd></div>` : ''}
<div><dt>${m.statusLabel}</dt><dd>${m.status[booking.status] ?? booking.status}</dd></div>
</dl>
${booking.status === 'canceled' && view.done !== 'canceled' ? html`<p>${m.alreadyCanceled}</p>` : ''}
${booking.status === 'declined' ? html`<p>${m.declinedByHost}</p>` : ''}
${booking.inPast ? html`<p>${m.inPast}</p>` : ''}
${
  live
    ? html`<section aria-labelledby="add-title"><h2 id="add-title">${m.addToCalendar}</h2>
<ul class="links"><li><a href="${view.icsHref}" download>${m.downloadIcs}</a></li>
<li><a href="${view.googleHref}" rel="noopener noreferrer" target="_blank">${m.googleCalendar}</a></li>
<li><a href="${view.outlookHref}" rel="noopener noreferrer" target="_blank">${m.outlookCalendar}</a></li></ul></section>
<section aria-labelledby="change-title"><h2 id="change-title">${m.reschedule}</h2>
${booking.allowReschedule ? html`<p><a class="button" href="${view.rescheduleHref}">${m.rescheduleTitle}</a></p>` : html`<p>${m.noReschedule}</p>`}</section>
${cancelSection(state, view)}`
    : waiting
      ? cancelSection(state, view)
      : ''
}`;
}

function cancelSection(state: PageState, view: ManageView): Html {
  const m = state.messages;
  return html`<section aria-labelledby="cancel-title"><h2 id="cancel-title">${m.cancel}</h2>
<form method="post" action="${view.cancelAction}">
<input type="hidden" name="form_token" value="${view.cancelToken}">
<div class="field"><label for="reason">${m.cancelReason}</label><textarea id="reason" name="reason" rows="2" maxlength="1024"></textarea></div>
<button type="submit" class="danger">${m.confirmCancel}</button>
</form></section>`;
}

/** Confirming a new time: the old and the new, and a reason. */
export function rescheduleForm(
  state: PageState,
  booking: ManagedBooking,
  view: { action: string; token: string; start: string; end: string; backHref: string },
): Html {
  const m = state.messages;
  return html`<h1>${m.rescheduleTo}</h1>
<dl class="summary">
<div><dt>${booking.title}</dt><dd>${m.withHost(booking.hostName)}</dd></div>
<div><dt>${m.currentTime}</dt><dd><del><time datetime="${booking.start}">${meetingIn(booking.start, booking.end, state.zone, state.locale)}</time></del></dd></div>
<div><dt>${m.rescheduleTo}</dt><dd><time datetime="${view.start}">${meetingIn(view.start, view.end, state.zone, state.locale)}</time></dd></div>
</dl>
<form method="post" action="${view.action}">
<input type="hidden" name="form_token" value="${view.token}">
<input type="hidden" name="start" value="${view.start}">
<div class="field"><label for="reason">${m.cancelReason}</label><textarea id="reason" name="reason" rows="2" maxlength="1024"></textarea></div>
<button type="submit">${m.confirmReschedule}</button>
</form>
<p><a href="${view.backHref}">${m.back}</a></p>`;
}
