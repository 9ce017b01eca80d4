import type { IncomingMessage } from 'node:http';

/** A sign-in or consent form is a few hundred bytes; anything near this is not one. */
export const MAX_FORM_BYTES = 8 * 1024;

export class FormError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** Reads an `application/x-www-form-urlencoded` body of at most 8 KiB; repeated fields (scope) keep every value. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new FormError(415, 'The form must be sent as application/x-www-form-urlencoded.');
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_FORM_BYTES) throw new FormError(413, 'The form is too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new FormError(413, 'The form is too large.');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
