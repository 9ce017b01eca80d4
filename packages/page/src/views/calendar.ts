import { dayOf, monthTitle, timeOf, weekdays, zonesWith } from '../format.js';
import { type Html, html } from '../html.js';
import { type Slot, shiftMonth, weeksOf } from '../month.js';
import { hrefOf, keptParams, type PageState } from '../page-state.js';

/** One month as the calendar shows it. */
export interface MonthView {
  readonly month: string;
  /** Free starts by local date. */
  readonly days: ReadonlyMap<string, readonly Slot[]>;
  /** The day whose times are listed, if any. */
  readonly date: string | undefined;
  readonly hasPrevious: boolean;
  readonly hasNext: boolean;
  /** A notice above the calendar: a time just taken, a form gone stale. */
  readonly notice?: string | undefined;
}

/**
 * The zone picker: a GET form, so it works without a script (the script
 * submits it on change). The month and day stay as they were.
 */
export function zonePicker(state: PageState, path: string, view: MonthView): Html {
  const m = state.messages;
  const hidden = keptParams(state).filter(([name]) => name !== 'tz');
  return html`<form class="zone" method="get" action="${path}" data-zone-form>
<label for="tz">${m.timeZone}</label>
<select id="tz" name="tz" autocomplete="off">${zonesWith(state.zone).map((zone) => html`<option${zone === state.zone ? ' selected' : ''}>${zone}</option>`)}</select>
<input type="hidden" name="month" value="${view.month}">${view.date ? html`<input type="hidden" name="date" value="${view.date}">` : ''}
${hidden.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit">${m.change}</button>
</form>`;
}

/**
 * The month grid and the chosen day's times: the part a script replaces when
 * the visitor changes month or day (`?fragment=1`), so it is all one
 * element. Each free day and each time is a plain link.
 */
export function calendar(state: PageState, path: string, view: MonthView, timeHref: (slot: Slot) => string): Html {
  const m = state.messages;
  const names = weekdays(state.locale);
  const link = (params: Record<string, string | undefined>) => hrefOf(state, path, params);
  const times = view.date ? (view.days.get(view.date) ?? []) : [];
  const anyFree = view.days.size > 0;
  return html`<div id="calendar" class="calendar">
${view.notice ? html`<p class="notice" role="alert">${view.notice}</p>` : ''}
<section class="month" aria-labelledby="month-title">
<div class="month-head">
${
  view.hasPrevious
    ? html`<a class="nav" data-nav href="${link({ month: shiftMonth(view.month, state.zone, -1) })}" aria-label="${m.previousMonth}">‹</a>`
    : html`<span class="nav" aria-hidden="true"></span>`
}
<h2 id="month-title" aria-live="polite">${monthTitle(view.month, state.locale)}</h2>
${
  view.hasNext
    ? html`<a class="nav" data-nav href="${link({ month: shiftMonth(view.month, state.zone, 1) })}" aria-label="${m.nextMonth}">›</a>`
    : html`<span class="nav" aria-hidden="true"></span>`
}
</div>
<table class="grid">
<caption class="sr-only">${m.chooseDay}</caption>
<thead><tr>${names.map((n) => html`<th scope="col"><abbr title="${n.long}">${n.short}</abbr></th>`)}</tr></thead>
<tbody>${weeksOf(view.month).map(
    (week) =>
      html`<tr>${week.map((date) => {
        if (date === null) return html`<td></td>`;
        const day = Number(date.slice(8));
        const label = dayOf(date, state.locale);
        if (!view.days.has(date)) return html`<td><span class="day" title="${m.busyDay(label)}">${day}</span></td>`;
        const chosen = date === view.date;
        return html`<td><a class="day free${chosen ? ' chosen' : ''}" data-nav href="${link({ month: view.month, date })}" aria-label="${m.freeDay(label)}"${chosen ? html` aria-current="date"` : ''}>${day}</a></td>`;
      })}</tr>`,
  )}</tbody>
</table>
${anyFree ? '' : html`<p>${m.noTimesThisMonth}</p>`}
</section>
<section class="day-times" aria-labelledby="day-title">
${
  view.date
    ? html`<h2 id="day-title" tabindex="-1">${m.timesOn(dayOf(view.date, state.locale))}</h2>
${
  times.length === 0
    ? html`<p>${m.noTimesThisDay}</p>`
    : html`<ul class="times">${times.map((slot) => html`<li><a class="time" href="${timeHref(slot)}"><time datetime="${slot.start}">${timeOf(slot.start, state.zone, state.locale)}</time></a></li>`)}</ul>`
}`
    : html`<h2 id="day-title" tabindex="-1">${m.chooseTime}</h2><p>${m.chooseDay}</p>`
}
<p class="muted">${m.timesShownIn(state.zone)}</p>
</section>
</div>`;
}
