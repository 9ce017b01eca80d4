import { closestName, type Operation, ScheduleError } from '@schedule/core';
import { DESTRUCTIVE } from './confirm.js';

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
    ...(DESTRUCTIVE.has(operation.name as never) ? ['confirm'] : []),
  ];
}

/** The two arguments that stand for headers; a tool that takes neither refuses them here, not as body fields. */
const HEADER_ARGUMENTS: readonly string[] = ['idempotency_key', 'if_match', 'confirm'];

/**
 * Refuses the arguments `operation` does not take with `validation_error`
 * naming them in `details.fields`, with a "did you mean" where one is close.
 *
 * A tool whose endpoint takes a body sends every other argument as a body
 * field, and core holds a body to its fields for HTTP and MCP alike
 * (core's validation/unknown-fields.ts; a PATCH answers with its own code,
 * `field_immutable` or `invalid_change`). So only the arguments that have
 * no place in such a call are judged here: the headers it does not take;
 * for a tool without a body (a read, a bodiless action), every argument it
 * does not take, since HTTP ignores an unknown query parameter and a model
 * that sends `statuses` would believe it had filtered.
 */
export function refuseUnknownArguments(operation: Operation, args: Record<string, unknown>): void {
  const known = argumentNames(operation);
  const takesBody = operation.method !== 'GET' && operation.schemas.input !== undefined;
  const unknown = Object.keys(args).filter((name) => !known.includes(name) && (!takesBody || HEADER_ARGUMENTS.includes(name)));
  if (unknown.length === 0) return;
  const guesses = unknown.flatMap((name) => {
    const hint = closestName(name, known);
    return hint ? [` Did you mean ${hint} (not ${name})?`] : [];
  });
  const message =
    known.length === 0
      ? `${operation.name} takes no arguments.`
      : `${operation.name} takes no arguments besides ${known.join(', ')}.${guesses.join('')}`;
  throw new ScheduleError('validation_error', message, { fields: unknown });
}
