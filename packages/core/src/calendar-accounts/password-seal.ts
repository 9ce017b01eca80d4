import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// A CalDAV password added through the API is kept sealed with the server's
// calendar key (CALENDAR_KEY, docs/calendars.md): AES-256-GCM, which both
// hides the password and detects any change to what is stored. The stored
// text names its format first (`v1.`), so a later format or a rotated key
// can be told apart from this one.

const FORMAT = 'v1';
const KEY_BYTES = 32;
/** 96 bits, the nonce length GCM is defined for (NIST SP 800-38D); random per seal. */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a sealed value to its purpose: a value sealed with the same key for anything else does not open here. */
const CONTEXT = Buffer.from('schedule caldav password v1');

/** A calendar key that cannot be used: the wrong length or encoding. Its message never holds the key. */
export class CalendarKeyError extends Error {
  override readonly name = 'CalendarKeyError';
}

/** A sealed password that does not open: tampered with, cut short, another format, or sealed with another key. */
export class SealedPasswordError extends Error {
  override readonly name = 'SealedPasswordError';
}

/** Seals and opens CalDAV passwords with one key. */
export interface PasswordSealer {
  seal(password: string): string;
  /** Throws SealedPasswordError when the value does not open with this key. */
  unseal(sealed: string): string;
}

/** The 32 bytes of a calendar key given as base64 (`openssl rand -base64 32`), base64url or 64 hex digits. */
export function parseCalendarKey(text: string): Buffer {
  const value = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
      ? Buffer.from(value, 'base64')
      : undefined;
  if (key?.length !== KEY_BYTES) {
    throw new CalendarKeyError(
      `CALENDAR_KEY must be 32 bytes, as base64 (44 characters) or hex (64 digits); make one with: openssl rand -base64 32`,
    );
  }
  return key;
}

/** A sealer over a 32-byte key. */
export function passwordSealer(key: Buffer): PasswordSealer {
  if (key.length !== KEY_BYTES) throw new CalendarKeyError(`a calendar key is ${KEY_BYTES} bytes, not ${key.length}`);
  return {
    seal(password) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(CONTEXT);
      const sealed = Buffer.concat([cipher.update(password, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${FORMAT}.${nonce.toString('base64url')}.${sealed.toString('base64url')}`;
    },
    unseal(sealed) {
      const [format, nonceText, bodyText, ...rest] = sealed.split('.');
      if (format !== FORMAT || nonceText === undefined || bodyText === undefined || rest.length > 0)
        throw new SealedPasswordError('not a sealed password of format v1');
      const nonce = Buffer.from(nonceText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new SealedPasswordError('a sealed password cut short');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES }).setAAD(CONTEXT);
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (error) {
        // GCM's check failed: changed since sealed, or another key.
        throw new SealedPasswordError('the sealed password does not open with this calendar key', { cause: error });
      }
    },
  };
}
