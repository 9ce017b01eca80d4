import type { z } from 'zod';
import { ScheduleError } from '../errors.js';

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

/**
 * Validates a body against its schema: `400 validation_error` with
 * `details.fields` naming each bad field; a present but malformed attendee
 * email is `400 attendee_email_invalid` (docs/api/errors.md). A missing body
 * counts as `{}`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const value = bodyObject(body);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((i) => pathOf(i.path)))];
  const attendee = (value as { attendee?: { email?: unknown } }).attendee;
  if (fields.includes('attendee.email') && typeof attendee?.email === 'string') {
    throw new ScheduleError('attendee_email_invalid', 'attendee.email must be an email address of at most 254 characters.', {
      fields: ['attendee.email'],
    });
  }
  const message = result.error.issues.map((i) => `${pathOf(i.path) || 'body'}: ${i.message}`).join('; ');
  throw new ScheduleError('validation_error', message, { fields });
}
