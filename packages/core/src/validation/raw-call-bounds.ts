import { ScheduleError } from '../errors.js';

/**
 * How deeply a body's arrays and objects may nest. Far above any real body
 * (metadata is the deepest field), and far below what overflows the stack of
 * the code that walks a body recursively (validation, canonical JSON).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Text every store keeps as it was sent: no U+0000 (PostgreSQL refuses it in
 * text, SQLite would keep it, so the two would disagree) and no lone UTF-16
 * surrogate (it cannot be encoded as UTF-8 and would be stored as U+FFFD).
 */
function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

type Flaw = { readonly kind: 'too_deep' } | { readonly kind: 'text' | 'number'; readonly path: string };

/**
 * The first flaw of a JSON value: nesting deeper than MAX_JSON_DEPTH, a
 * string or key no store keeps as sent, or a number JSON cannot carry (JSON
 * text such as `1e309` parses to Infinity, which no canonical form has).
 * Iterative, so a value of any depth is judged before anything recurses over it.
 */
function flawOf(root: unknown): Flaw | undefined {
  const pending: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return { kind: 'text', path: path.join('.') };
      continue;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) return { kind: 'number', path: path.join('.') };
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_JSON_DEPTH) return { kind: 'too_deep' };
    for (const [name, child] of Object.entries(value)) {
      if (!isStorableText(name)) return { kind: 'text', path: path.join('.') };
      pending.push({ value: child, path: [...path, name] });
    }
  }
  return undefined;
}

const TEXT_RULE = 'must not contain U+0000 or a lone surrogate';
const NUMBER_RULE = 'must be a finite number';

/**
 * The bounds every call meets before it is parsed, for every front end alike:
 * body depth and text (`400 validation_error` naming the field), query values
 * (`400 invalid_query_param`), path parameters (no resource has such an id:
 * `404 not_found`) and the Idempotency-Key (`400 validation_error`).
 */
export function checkRawCallBounds(call: {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  readonly idempotencyKey?: string | undefined;
}): void {
  for (const [name, value] of Object.entries(call.params)) {
    if (!isStorableText(value)) throw new ScheduleError('not_found', `No resource has that ${name}.`);
  }
  for (const [param, value] of Object.entries(call.query)) {
    const flaw = isStorableText(param) ? flawOf(value) : { kind: 'text' };
    if (flaw) {
      const rule =
        flaw.kind === 'too_deep' ? `must not nest deeper than ${MAX_JSON_DEPTH} levels` : flaw.kind === 'number' ? NUMBER_RULE : TEXT_RULE;
      throw new ScheduleError('invalid_query_param', `${param}: ${rule}.`, { param });
    }
  }
  if (call.idempotencyKey !== undefined && !isStorableText(call.idempotencyKey)) {
    throw new ScheduleError(
      'validation_error',
      (w) => `${w.name.idempotency_key} ${TEXT_RULE}.`,
      (w) => ({ fields: [w.name.idempotency_key] }),
    );
  }
  const flaw = flawOf(call.body);
  if (flaw?.kind === 'too_deep') {
    throw new ScheduleError('validation_error', `The body must not nest deeper than ${MAX_JSON_DEPTH} levels.`, { fields: [] });
  }
  if (flaw?.kind === 'text' || flaw?.kind === 'number') {
    const field = flaw.path || 'body';
    throw new ScheduleError('validation_error', `${field}: ${flaw.kind === 'number' ? NUMBER_RULE : TEXT_RULE}.`, { fields: [field] });
  }
}
