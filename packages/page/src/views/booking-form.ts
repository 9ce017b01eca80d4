import type { PublicEventType, Question } from '@schedule/core';
import { meetingIn } from '../format.js';
import { type Html, html } from '../html.js';
import type { PageState } from '../page-state.js';
import { meetingHeader } from './booking-page.js';

/** What the visitor typed, to show again beside the errors. */
export interface FormValues {
  readonly name: string;
  readonly email: string;
  readonly guests: string;
  readonly answers: ReadonlyMap<string, readonly string[]>;
  readonly repeat: 'none' | 'weekly' | 'monthly';
  readonly count: string;
  /** The hold the page's script made for this form's time (docs/booking-page.md "Holds"); empty without one. */
  readonly holdId: string;
}

export const EMPTY_FORM: FormValues = { name: '', email: '', guests: '', answers: new Map(), repeat: 'none', count: '4', holdId: '' };

/** A series preview to show before the visitor confirms: the dates booked and skipped. */
export interface PreviewShown {
  readonly booked: readonly string[];
  readonly skipped: readonly string[];
}

export interface FormView {
  readonly action: string;
  /** Where the script holds the time while the form is filled, and releases it when the visitor leaves. */
  readonly holdAction: string;
  readonly releaseAction: string;
  readonly token: string;
  readonly start: string;
  readonly end: string;
  readonly values: FormValues;
  /** Errors by form field name (`name`, `email`, `guests`, `q.<id>`, `count`); `form` for the whole. */
  readonly errors: ReadonlyMap<string, string>;
  readonly preview?: PreviewShown | undefined;
  readonly backHref: string;
}

/** The series counts the page offers; the API takes up to 42. */
export const REPEAT_COUNTS = [2, 3, 4, 5, 6, 8, 10, 12] as const;

function describedBy(id: string, errors: ReadonlyMap<string, string>, hint?: string): Html | string {
  const ids = [hint, errors.has(id) ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return ids === '' ? '' : html` aria-describedby="${ids}"`;
}

function errorOf(id: string, errors: ReadonlyMap<string, string>): Html | string {
  const error = errors.get(id);
  return error === undefined ? '' : html`<p class="field-error" id="${id}-error">${error}</p>`;
}

const invalid = (id: string, errors: ReadonlyMap<string, string>) => (errors.has(id) ? html` aria-invalid="true"` : '');

function questionField(state: PageState, q: Question, values: FormValues, errors: ReadonlyMap<string, string>): Html {
  const m = state.messages;
  const id = `q.${q.id}`;
  const answer = values.answers.get(q.id) ?? [];
  const mark = q.required ? html` <span class="req">(${m.required})</span>` : '';
  const required = q.required ? html` required aria-required="true"` : '';
  switch (q.type) {
    case 'long_text':
      return html`<div class="field"><label for="${id}">${q.label}${mark}</label>
<textarea id="${id}" name="${id}" rows="4" maxlength="5000"${required}${invalid(id, errors)}${describedBy(id, errors)}>${answer[0] ?? ''}</textarea>${errorOf(id, errors)}</div>`;
    case 'boolean':
      return html`<div class="field check"><input type="checkbox" id="${id}" name="${id}" value="true"${answer[0] === 'true' ? ' checked' : ''}${required}${invalid(id, errors)}${describedBy(id, errors)}>
<label for="${id}">${q.label}${mark}</label>${errorOf(id, errors)}</div>`;
    case 'select':
      return html`<div class="field"><label for="${id}">${q.label}${mark}</label>
<select id="${id}" name="${id}"${required}${invalid(id, errors)}${describedBy(id, errors)}><option value="">${m.selectOne}</option>${(
        q.options ?? []
      ).map((o) => html`<option${answer[0] === o ? ' selected' : ''}>${o}</option>`)}</select>${errorOf(id, errors)}</div>`;
    case 'multi_select':
      // The fieldset holds the question's id, so the error list's link to it lands on the group.
      return html`<fieldset class="field" id="${id}" tabindex="-1"${describedBy(id, errors)}><legend>${q.label}${mark}</legend>${(
        q.options ?? []
      ).map(
        (o, i) =>
          html`<div class="check"><input type="checkbox" id="${id}.${i}" name="${id}" value="${o}"${answer.includes(o) ? ' checked' : ''}><label for="${id}.${i}">${o}</label></div>`,
      )}${errorOf(id, errors)}</fieldset>`;
    case 'number':
      return html`<div class="field"><label for="${id}">${q.label}${mark}</label>
<input type="text" inputmode="decimal" id="${id}" name="${id}" value="${answer[0] ?? ''}" maxlength="32"${required}${invalid(id, errors)}${describedBy(id, errors)}>${errorOf(id, errors)}</div>`;
    case 'text':
      return html`<div class="field"><label for="${id}">${q.label}${mark}</label>
<input type="text" id="${id}" name="${id}" value="${answer[0] ?? ''}" maxlength="1000"${required}${invalid(id, errors)}${describedBy(id, errors)}>${errorOf(id, errors)}</div>`;
  }
}

function repeatFields(state: PageState, type: PublicEventType, view: FormView): Html | string {
  if (!type.recurring) return '';
  const m = state.messages;
  const v = view.values;
  const option = (value: FormValues['repeat'], label: string) =>
    html`<option value="${value}"${v.repeat === value ? ' selected' : ''}>${label}</option>`;
  const preview = view.preview;
  return html`<fieldset class="repeat"><legend>${m.repeat}</legend>
<div class="field"><label for="repeat">${m.repeat}</label>
<select id="repeat" name="repeat">${option('none', m.repeatNone)}${option('weekly', m.repeatWeekly)}${option('monthly', m.repeatMonthly)}</select></div>
<div class="field"><label for="count">${m.repeatCount}</label>
<select id="count" name="count"${invalid('count', view.errors)}${describedBy('count', view.errors)}>${REPEAT_COUNTS.map((n) => html`<option${String(n) === v.count ? ' selected' : ''}>${n}</option>`)}</select>${errorOf('count', view.errors)}</div>
<button type="submit" name="action" value="preview" class="secondary">${m.previewDates}</button>
${
  preview
    ? html`<div class="preview" role="status">${
        preview.booked.length > 0
          ? html`<p>${m.willBook}</p><ul>${preview.booked.map((d) => html`<li>${d}</li>`)}</ul>`
          : html`<p>${m.noDatesFree}</p>`
      }${preview.skipped.length > 0 ? html`<p>${m.willSkip}</p><ul>${preview.skipped.map((d) => html`<li>${d}</li>`)}</ul>` : ''}</div>`
    : ''
}
</fieldset>`;
}

/** A field's label, for the error list: each link there names the field it leads to, not only what is wrong. */
function fieldLabel(state: PageState, type: PublicEventType, id: string): string {
  const m = state.messages;
  const fixed: Record<string, string> = { name: m.name, email: m.email, guests: m.guests, count: m.repeatCount };
  return fixed[id] ?? type.questions.find((q) => `q.${q.id}` === id)?.label ?? id;
}

/** The booking form: the chosen time, the visitor's details, the event type's questions, perhaps a repeat. */
export function bookingForm(state: PageState, type: PublicEventType, view: FormView): Html {
  const m = state.messages;
  const { errors, values: v } = view;
  const problems = [...errors].filter(([id]) => id !== 'form');
  return html`${meetingHeader(state, type)}
<section class="chosen" aria-labelledby="chosen-title"><h2 id="chosen-title">${m.chosenTime}</h2>
<p><time datetime="${view.start}">${meetingIn(view.start, view.end, state.zone, state.locale)}</time></p>
<p class="muted">${m.timesShownIn(state.zone)}</p>
<p class="muted" id="held" role="status"></p>
<p><a href="${view.backHref}">${m.back}</a></p></section>
<form class="book" method="post" action="${view.action}" data-hold="${view.holdAction}" data-release="${view.releaseAction}" novalidate>
${
  // Enter in a field submits with the form's first submit button: this one, so it books, as the visible
  // button at the end says, rather than previewing the series (a button that comes earlier on the page).
  html`<button type="submit" name="action" value="book" hidden tabindex="-1">${m.confirm}</button>`
}
${
  errors.size > 0
    ? html`<div class="notice" role="alert" tabindex="-1" id="form-errors"><p>${errors.get('form') ?? m.fixErrors}</p>${
        problems.length > 0
          ? html`<ul>${problems.map(([id, text]) => html`<li><a href="#${id}">${fieldLabel(state, type, id)}: ${text}</a></li>`)}</ul>`
          : ''
      }</div>`
    : ''
}
<h2>${m.yourDetails}</h2>
<input type="hidden" name="form_token" value="${view.token}">
<input type="hidden" name="start" value="${view.start}">
<input type="hidden" name="hold_id" value="${v.holdId}">
<div class="field"><label for="name">${m.name} <span class="req">(${m.required})</span></label>
<input type="text" id="name" name="name" value="${v.name}" autocomplete="name" maxlength="255" required aria-required="true"${invalid('name', errors)}${describedBy('name', errors)}>${errorOf('name', errors)}</div>
<div class="field"><label for="email">${m.email} <span class="req">(${m.required})</span></label>
<input type="email" id="email" name="email" value="${v.email}" autocomplete="email" maxlength="254" required aria-required="true"${invalid('email', errors)}${describedBy('email', errors)}>${errorOf('email', errors)}</div>
<div class="field"><label for="guests">${m.guests} <span class="muted">(${m.optional})</span></label>
<textarea id="guests" name="guests" rows="2" maxlength="13000"${invalid('guests', errors)}${describedBy('guests', errors, 'guests-hint')}>${v.guests}</textarea>
<p class="hint" id="guests-hint">${m.guestsHint}</p>${errorOf('guests', errors)}</div>
${type.questions.map((q) => questionField(state, q, v, errors))}
${repeatFields(state, type, view)}
<div class="hp" aria-hidden="true"><label for="website">Website</label><input type="text" id="website" name="website" tabindex="-1" autocomplete="off"></div>
<button type="submit" name="action" value="book">${m.confirm}</button>
</form>`;
}

/** A date of a series preview: the day and time in the visitor's zone. */
export function previewDate(state: PageState, start: string, end: string): string {
  return meetingIn(start, end, state.zone, state.locale);
}
