import type { Assets } from '../assets.js';
import { type Html, html } from '../html.js';
import { CATALOGUE } from '../messages/messages.js';
import { hrefOf, type PageState } from '../page-state.js';

/** What the embed reports to the page that frames it (docs/booking-page.md "Embed"). */
export interface Report {
  readonly event: 'booked' | 'rescheduled' | 'canceled';
  readonly uid: string;
  readonly start: string;
  readonly end: string;
}

/**
 * A whole page: the language switch, the content, and the two assets. The
 * embed leaves out the header and footer; what it reports travels as data
 * attributes the script reads (no inline script under the policy).
 */
export function layout(
  state: PageState,
  assets: Assets,
  page: { title: string; path: string; query?: Record<string, string | undefined>; main: Html; report?: Report | undefined },
): Html {
  const m = state.messages;
  const report = page.report;
  const switcher = [...CATALOGUE.values()].map((other) =>
    other.lang === m.lang
      ? html`<li><span aria-current="true" lang="${other.lang}">${other.languageName}</span></li>`
      : html`<li><a href="${hrefOf({ ...state, lang: other.lang }, page.path, page.query)}" lang="${other.lang}" hreflang="${other.lang}">${other.languageName}</a></li>`,
  );
  return html`<!DOCTYPE html>
<html lang="${m.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${page.title}">
<title>${page.title}</title>
<link rel="icon" href="${assets.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.css}">
<script src="${assets.js}" defer></script>
</head>
<body${state.embed ? html` class="embed"` : ''}${state.parent ? html` data-parent="${state.parent}"` : ''}${
    report ? html` data-report="${report.event}" data-uid="${report.uid}" data-start="${report.start}" data-end="${report.end}"` : ''
  }>
<a class="skip" href="#main">${m.skip}</a>
${state.embed ? '' : html`<header class="bar"><nav aria-label="${m.language}"><ul class="langs">${switcher}</ul></nav></header>`}
<main id="main" tabindex="-1">
${page.main}
</main>
${state.embed ? '' : html`<footer class="bar"><p>${m.poweredBy}</p></footer>`}
</body>
</html>
`;
}
