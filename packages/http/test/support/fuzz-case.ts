import fc from 'fast-check';

/** One request the fuzzer sends, as the bytes that go on the wire and what the checks need to know of them. */
export interface FuzzCase {
  /** Which generator made it (`api create_booking body:deep`, `raw request-line`), to read a failure by. */
  readonly label: string;
  readonly method: string;
  /** Request line and header lines as sent, joined by CRLF, without the blank line that ends them. */
  readonly head: string;
  readonly body: Buffer;
  /** The request carries a body and does not label it JSON: it must never be acted on. */
  readonly nonJsonBody: boolean;
  /** The request as bytes. */
  bytes(): Buffer;
}

/** `application/json` or a `+json` type, any parameters: what the API accepts as a JSON body. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

const SHOWN = 300;

function clip(text: string): string {
  return text.length <= SHOWN ? text : `${text.slice(0, SHOWN)}…(${text.length} chars)`;
}

/**
 * A case from its parts. A Content-Length is added for a body unless the
 * headers frame it themselves; Host is the caller's to include or not.
 */
export function assembleCase(parts: {
  label: string;
  method: string;
  requestLine: string;
  headers: readonly (readonly [string, string])[];
  body?: Buffer | undefined;
}): FuzzCase {
  const body = parts.body ?? Buffer.alloc(0);
  const names = parts.headers.map(([name]) => name.toLowerCase());
  const framed = names.includes('content-length') || names.includes('transfer-encoding');
  const headers = body.length > 0 && !framed ? [...parts.headers, ['Content-Length', String(body.length)] as const] : parts.headers;
  const head = [parts.requestLine, ...headers.map(([name, value]) => `${name}: ${value}`)].join('\r\n');
  const contentType = parts.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const carriesBody = body.length > 0 || names.includes('transfer-encoding');
  return {
    label: parts.label,
    method: parts.method,
    head,
    body,
    nonJsonBody: carriesBody && !isJsonMediaType(contentType),
    bytes: () => Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'utf8'), body]),
    // How fast-check prints a counterexample: the head, long values clipped, and the start of the body.
    [fc.toStringMethod]: () =>
      `${parts.label}\n${head
        .split('\r\n')
        .map((line) => `  ${clip(JSON.stringify(line))}`)
        .join('\n')}\n  body: ${clip(JSON.stringify(body.toString('utf8')))}`,
  } as FuzzCase;
}

/** A header value or path text without CR and LF, which would end the line early (the raw cases do that on purpose). */
export function oneLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}

function utf8Bytes(codePoint: number): number[] {
  // WTF-8: a lone surrogate gets the three bytes its code point would have, as a careless encoder writes it.
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  return [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
}

/** Percent-encodes everything but RFC 3986 unreserved characters; never throws (encodeURIComponent does on a lone surrogate). */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    if (/^[A-Za-z0-9\-_.~]$/.test(char)) out += char;
    else for (const byte of utf8Bytes(char.codePointAt(0)!)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Percent-encodes only what cannot appear in a request target at all (controls, space, non-ASCII); `&`, `=`, `%`, `#` go as they are. */
export function looseEncode(text: string): string {
  let out = '';
  for (const char of text) out += /^[\x21-\x7e]$/.test(char) ? char : percentEncode(char);
  return out;
}
