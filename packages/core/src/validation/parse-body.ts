import type { z } from 'zod';
import { ScheduleError } from '../errors.js';
import { didYouMean } from './closest-name.js';
import { inPlainWords } from './issue-words.js';

function pathOf(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Refuses a body that is not a JSON object (a missing body counts as `{}`). */
export function bodyObject(body: unknown): Record<string, unknown> {
  const value = body === undefined ? {} : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ScheduleError('validation_error', 'The body must be a JSON object.', { fields: [] });
  }
  return value as Record<string, unknown>;
}

/** One clause per failed check, `field: rule`, each said once (an integer past every bound fails several alike). */
export function issueClauses(issues: readonly z.core.$ZodIssue[]): string {
  return [...new Set(issues.map((i) => `${pathOf(i.path) || 'body'}: ${i.message}`))].join('; ');
}

/**
 * Validates a body against its schema: `400 validation_error` with
 * `details.fields` naming each bad field and a `field: rule` clause for each
 * in plain words (issue-words.ts); a present but malformed attendee email is
 * `400 attendee_email_invalid` (docs/api/errors.md). A missing body counts as
 * `{}`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const value = bodyObject(body);
  const result = schema.safeParse(value, { error: inPlainWords });
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((i) => pathOf(i.path)))];
  const attendee = (value as { attendee?: { email?: unknown } }).attendee;
  // Stryker disable next-line OptionalChaining: attendee.email is among the bad fields only when attendee is an object.
  if (fields.includes('attendee.email') && typeof attendee?.email === 'string') {
    throw new ScheduleError('attendee_email_invalid', 'attendee.email must be an email address of at most 254 characters.', {
      fields: ['attendee.email'],
    });
  }
  throw new ScheduleError('validation_error', issueClauses(result.error.issues), { fields });
}

/**
 * Validates a PATCH body: a key the patch does not take is `400
 * validation_error` naming it and the field most likely meant, before any
 * value is judged; then each value as `parseBody` does; a patch that
 * changes nothing is refused too, naming what may be sent.
 */
export function parsePatch<S extends z.ZodObject>(schema: S, body: unknown): z.output<S> {
  const patchable = Object.keys(schema.shape);
  const unknown = Object.keys(bodyObject(body)).filter((key) => !patchable.includes(key));
  if (unknown.length > 0) {
    throw new ScheduleError(
      'validation_error',
      `Unknown fields: ${unknown.join(', ')}. Send any of ${patchable.join(', ')}.${didYouMean(unknown, patchable)}`,
      { fields: unknown },
    );
  }
  const patch = parseBody(schema, body);
  if (Object.keys(patch).length === 0) {
    throw new ScheduleError('validation_error', `Send at least one of ${patchable.join(', ')}.`, { fields: [] });
  }
  return patch;
}
