import { bookingPagePath, type PublicHost } from '@schedule/core';
import { type Html, html } from '../html.js';
import { hrefOf, type PageState } from '../page-state.js';

/** A host's page: the event types they list, each a link to its booking page. */
export function hostPage(
  state: PageState,
  host: PublicHost,
  types: readonly { slug: string; name: string; description: string | null; durationMinutes: number }[],
): Html {
  const m = state.messages;
  return html`<h1>${m.eventTypesOf(host.name)}</h1>
${
  types.length === 0
    ? html`<p>${m.noEventTypes}</p>`
    : html`<ul class="types">${types.map(
        (
          t,
        ) => html`<li><a class="type" href="${hrefOf(state, bookingPagePath(host.username, t.slug))}"><span class="type-name">${t.name}</span>
<span class="muted">${m.minutes(t.durationMinutes)}</span>${t.description ? html`<span class="type-text">${t.description}</span>` : ''}</a></li>`,
      )}</ul>`
}`;
}
