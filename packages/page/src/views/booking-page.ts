import type { PublicEventType } from '@schedule/core';
import { type Html, html } from '../html.js';
import type { Slot } from '../month.js';
import type { PageState } from '../page-state.js';
import { calendar, type MonthView, zonePicker } from './calendar.js';

/** What the meeting is: its name, host, length, how it happens. */
export function meetingHeader(state: PageState, type: PublicEventType): Html {
  const m = state.messages;
  return html`<h1>${type.name}</h1>
<p class="lead">${m.withHost(type.host.name)}</p>
<dl class="facts"><div><dt>${m.duration}</dt><dd>${m.minutes(type.durationMinutes)}</dd></div><div><dt>${m.where}</dt><dd>${m.locations[type.locationType]}</dd></div></dl>
${type.description ? html`<p class="description">${type.description}</p>` : ''}`;
}

/** An event type's booking page: what it is, the zone, and the calendar. */
export function bookingPage(
  state: PageState,
  type: PublicEventType,
  path: string,
  view: MonthView,
  timeHref: (slot: Slot) => string,
): Html {
  if (!type.bookable) return html`${meetingHeader(state, type)}<p class="notice" role="alert">${state.messages.inactive}</p>`;
  return html`<div class="columns">
<div class="about">${meetingHeader(state, type)}${zonePicker(state, path, view)}</div>
${calendar(state, path, view, timeHref)}
</div>`;
}

/** A page that only says something: not found, expired, too many requests. */
export function messagePage(title: string, text: string): Html {
  return html`<h1>${title}</h1><p>${text}</p>`;
}
