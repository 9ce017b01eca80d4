import { type Operation, ScheduleError } from '@schedule/core';

// A tool argument the tool does not take is refused, not ignored: a model
// that sends `statuses` for `status` would otherwise get every booking and
// believe it filtered them (issue 11).

/** Every argument a tool takes: path parameters, query or body fields, and the two headers as arguments. */
export function argumentNames(operation: Operation): string[] {
  return [
    ...operation.schemas.params,
    ...Object.keys(operation.schemas.input?.shape ?? {}),
    ...(operation.idempotencyKey === 'none' ? [] : ['idempotency_key']),
    ...(operation.ifMatch === 'none' ? [] : ['if_match']),
  ];
}

/** Edit distance (Levenshtein), for names of a few dozen characters. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The words of a name that say something (`id` alone does not say which id). */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3);

/**
 * The known name an unknown one most likely meant: one that shares its
 * words or begins like it (`host_id` or `host` for `host_user_id`, `email`
 * for `attendee_email`, `meta` for `metadata`), else a small typo or
 * inflection (`statuses`, `hostUserId`, `limt`).
 */
export function closestName(unknown: string, known: readonly string[]): string | undefined {
  const flat = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = new Set(wordsOf(unknown));
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const typo = distance(flat(unknown), flat(name));
    const theirs = wordsOf(name);
    const shared = theirs.filter((w) => words.has(w)).length;
    const [shorter, longer] = [flat(unknown), flat(name)].sort((a, b) => a.length - b.length) as [string, string];
    const related =
      (shared > 0 && (shared === theirs.length || shared === words.size)) || (shorter.length >= 4 && longer.startsWith(shorter));
    // Related words rank between a one-letter slip and a two-letter one.
    const score = related ? Math.min(typo, 1.5) : typo;
    const close = related || typo <= (Math.min(unknown.length, name.length) < 4 ? 1 : 2);
    if (close && (!best || score < best.score)) best = { name, score };
  }
  return best?.name;
}

/**
 * Refuses the arguments `operation` does not take with `validation_error`
 * naming them in `details.fields`, with a "did you mean" where one is close.
 *
 * The two PATCH tools are the exception the spec makes: docs/api answers a
 * body field that cannot be patched with `422 field_immutable` (bookings)
 * and docs/api/choices.md with `422 invalid_change` (series), naming it and saying
 * what to use instead, so an argument that is not a typo of one they take
 * goes on to core and gets that answer.
 */
export function refuseUnknownArguments(operation: Operation, args: Record<string, unknown>): void {
  const known = argumentNames(operation);
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const hints = new Map(unknown.map((name) => [name, closestName(name, known)]));
  if (operation.method === 'PATCH' && unknown.every((name) => hints.get(name) === undefined)) return;
  const guesses = unknown.flatMap((name) => {
    const hint = hints.get(name);
    return hint ? [` Did you mean ${hint} (not ${name})?`] : [];
  });
  const message =
    known.length === 0
      ? `${operation.name} takes no arguments.`
      : `${operation.name} takes no arguments besides ${known.join(', ')}.${guesses.join('')}`;
  throw new ScheduleError('validation_error', message, { fields: unknown });
}
