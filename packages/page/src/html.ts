// HTML written with a tagged template: every value put into a template is
// escaped unless it is itself markup made by this tag, so a host's event
// type name or a visitor's answer can never become markup. No template
// engine is needed for pages this small, and none runs in the browser.

/** Markup this module made (or a constant string the code vouches for). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as it may stand in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<p>${name}</p>\``: the values escaped, lists joined, null, undefined and false left out. */
export function html(strings: TemplateStringsArray, ...values: readonly Value[]): Html {
  let text = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) text += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(text);
}

/** Markup the code vouches for (a constant, or one written by `html`). */
export function raw(text: string): Html {
  return new Html(text);
}
