import { type IfMatch, parseIfMatch } from '../conditional.js';
import { ScheduleError } from '../errors.js';

// What `execute` checks is in a call before any operation parses it, and the
// refusal when it is not. An operation's `parse` reads these parts through
// the same functions, so it needs no fallback of its own for a part that
// cannot be missing there, and the refusal is written once.

/** `validation_error` naming a path parameter the call left out (a tool can be called without one). */
export function missingParam(name: string): ScheduleError {
  return new ScheduleError('validation_error', `${name}: is required.`, { fields: [name] });
}

/** `missing_if_match` for an operation that requires If-Match. */
export function missingIfMatch(): ScheduleError {
  return new ScheduleError('missing_if_match', (w) => `${w.call} requires ${w.carried.if_match} with the current version.`);
}

/** The path parameter `name`; `execute` refused the call already when it is absent. */
export function pathParam(params: Readonly<Record<string, string>>, name: string): string {
  const value = params[name];
  if (value === undefined) throw missingParam(name);
  return value;
}

/** The If-Match of an operation that requires one; `execute` refused the call already when it is absent. */
export function requiredIfMatch(call: { readonly ifMatch?: string | undefined }): IfMatch {
  if (call.ifMatch === undefined) throw missingIfMatch();
  return parseIfMatch(call.ifMatch);
}

/** The If-Match of an operation that takes one if sent; undefined when it was not. */
export function sentIfMatch(call: { readonly ifMatch?: string | undefined }): IfMatch | undefined {
  return call.ifMatch === undefined ? undefined : parseIfMatch(call.ifMatch);
}
