import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { sharedSecret } from '../oauth/server-secrets.js';
import type { Executor } from '../storage/store.js';

// A manage link lets the attendee of one booking reschedule or cancel it
// without an account (docs/api/choices.md "Manage links"). The link holds
// the booking's uid, when the link stops working, and an HMAC of both under
// a key every server process on the database shares: it needs no row of its
// own, another booking's uid cannot be put in it, and deleting the key from
// `server_secrets` ends every link at once.

/** The name of the key in `server_secrets`. */
const MANAGE_LINK_KEY = 'manage_link_key';

/** Binds a signature to this use: an HMAC made with the same key for anything else never matches. */
const PURPOSE = 'schedule manage link v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Seconds since the epoch, as a link writes them: up to the year 5138. */
const SECONDS = /^[0-9]{1,11}$/;
/** A SHA-256 HMAC in base64url without padding: 43 characters of one byte each, as the comparison below needs equal lengths. */
const MAC = /^[A-Za-z0-9_-]{43}$/;
/** The longest link this module writes (a uid, 11 digits, a MAC and two dots): anything longer is not read. */
export const MAX_MANAGE_LINK_LENGTH = 36 + 1 + 11 + 1 + 43;

/** The key manage links are signed with, made by the first process that asks. */
export function manageLinkKey(db: Executor, deps: { clock: Clock }): Promise<string> {
  return sharedSecret(db, deps, MANAGE_LINK_KEY, () => randomBytes(32).toString('base64url'));
}

function macOf(key: string, bookingUid: string, expiresAt: string): string {
  return createHmac('sha256', key).update(`${PURPOSE}\n${bookingUid}\n${expiresAt}`).digest('base64url');
}

/**
 * The token of a manage link for `bookingUid`, working until `expiresAtMs`
 * (rounded up to the second: a link never stops before the time asked).
 */
export function signManageLink(key: string, bookingUid: string, expiresAtMs: number): string {
  const expiresAt = String(Math.ceil(expiresAtMs / 1000));
  return `${bookingUid}.${expiresAt}.${macOf(key, bookingUid, expiresAt)}`;
}

/** What a presented token is: a link for a booking, one that has expired, or nothing this server made. */
export type ManageLinkReading =
  | { readonly kind: 'valid'; readonly bookingUid: string; readonly expiresAtMs: number }
  | { readonly kind: 'expired'; readonly bookingUid: string; readonly expiresAtMs: number }
  | { readonly kind: 'invalid' };

const INVALID: ManageLinkReading = { kind: 'invalid' };

/**
 * Reads a token a visitor presents. Its shape is checked before its
 * signature, and the signature in constant time; an expired link is told
 * apart only once its signature holds, so the page can say "this link has
 * expired" without trusting what it names.
 */
export function readManageLink(key: string, token: string, nowMs: number): ManageLinkReading {
  if (token.length > MAX_MANAGE_LINK_LENGTH) return INVALID;
  // Stryker disable next-line StringLiteral: the defaults only type the destructuring; a part left out fails its pattern below whatever stands for it
  const [bookingUid = '', expiresAt = '', mac = '', ...rest] = token.split('.');
  if (rest.length > 0 || !UUID.test(bookingUid) || !SECONDS.test(expiresAt) || !MAC.test(mac)) return INVALID;
  const expected = Buffer.from(macOf(key, bookingUid, expiresAt));
  if (!timingSafeEqual(expected, Buffer.from(mac))) return INVALID;
  const expiresAtMs = Number(expiresAt) * 1000;
  return { kind: nowMs < expiresAtMs ? 'valid' : 'expired', bookingUid, expiresAtMs };
}

/**
 * Where the booking page serves one booking to the holder of its link
 * (docs/booking-page.md "Addresses"). A token holds no `/`, so the page's
 * assets under `/booking/assets/` never meet one.
 */
export function manageLinkPath(token: string): string {
  return `/booking/${token}`;
}

/** The attendee's manage link in a mail about one booking, or undefined where no server serves pages. */
export type ManageLinkWriter = (bookingUid: string, endAt: string) => Promise<string | undefined>;

/**
 * Writes manage links under the server's public address. A link works
 * until its meeting ends: after that there is nothing left to move or
 * cancel (docs/api: `booking_in_past`). The key is read once, when the
 * first link is written.
 */
export function manageLinkWriter(db: Executor, deps: { clock: Clock }, pages: () => string | undefined): ManageLinkWriter {
  let key: Promise<string> | undefined;
  return async (bookingUid, endAt) => {
    // A key that could not be read (the database away) is asked for again by the next mail's retry.
    const base = pages();
    if (base === undefined) return undefined;
    key ??= manageLinkKey(db, deps).catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    const token = signManageLink(await key, bookingUid, Date.parse(endAt));
    return `${base.replace(/\/+$/, '')}${manageLinkPath(token)}`;
  };
}
