import type { IncomingMessage } from 'node:http';
import { ScheduleError } from '@schedule/core';
import { readBody } from '@schedule/http';

/** A booking form with 50 guests and long answers fits many times over; anything larger is not a person typing. */
export const MAX_FORM_BYTES = 64 * 1024;

/** A posted form's fields; a repeated field keeps every value (a multiple choice question). */
export type FormFields = ReadonlyMap<string, readonly string[]>;

/** The first value of a field. */
export const field = (form: FormFields, name: string): string | undefined => form.get(name)?.[0];

/**
 * Reads an `application/x-www-form-urlencoded` body (what a form posts
 * without JavaScript): `413 payload_too_large` past MAX_FORM_BYTES, `415`
 * for another type.
 */
export async function readForm(req: IncomingMessage): Promise<FormFields> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ScheduleError('unsupported_media_type', 'A form is posted as application/x-www-form-urlencoded.', {});
  }
  const tooLarge = () =>
    new ScheduleError('payload_too_large', `A form is at most ${MAX_FORM_BYTES} bytes.`, { max_bytes: MAX_FORM_BYTES });
  const fields = new Map<string, string[]>();
  // Browsers post a text area's line breaks as CRLF (HTML's form encoding): read as the LF a person typed.
  for (const [name, value] of new URLSearchParams((await readBody(req, MAX_FORM_BYTES, tooLarge)).toString('utf8'))) {
    fields.set(name, [...(fields.get(name) ?? []), value.replace(/\r\n?/g, '\n')]);
  }
  return fields;
}
