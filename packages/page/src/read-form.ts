import type { IncomingMessage } from 'node:http';
import { ScheduleError } from '@schedule/core';

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
export function readForm(req: IncomingMessage): Promise<FormFields> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return Promise.reject(new ScheduleError('unsupported_media_type', 'A form is posted as application/x-www-form-urlencoded.', {}));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () =>
      new ScheduleError('payload_too_large', `A form is at most ${MAX_FORM_BYTES} bytes.`, { max_bytes: MAX_FORM_BYTES });
    if (Number(req.headers['content-length'] ?? 0) > MAX_FORM_BYTES) return reject(tooLarge());
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        req.destroy();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      const fields = new Map<string, string[]>();
      for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
        // A browser posts a textarea's line breaks as CRLF (HTML's form encoding): keep them as typed, LF.
        fields.set(name, [...(fields.get(name) ?? []), value.replace(/\r\n?/g, '\n')]);
      }
      resolve(fields);
    });
  });
}
