import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CalendarKeyError, parseCalendarKey, passwordSealer, SealedPasswordError } from '../src/calendar-accounts/password-seal.js';

// docs/calendars.md "What is stored": CalDAV passwords sealed with CALENDAR_KEY.

const KEY = randomBytes(32);
const PASSWORD = 'correct horse battery staple ✓';

describe('password sealing', () => {
  it('opens what it sealed; each seal has its own nonce, and the text holds no plaintext', () => {
    const sealer = passwordSealer(KEY);
    const one = sealer.seal(PASSWORD);
    const two = sealer.seal(PASSWORD);
    expect(one).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('horse');
    expect(sealer.unseal(one)).toBe(PASSWORD);
    expect(sealer.unseal(two)).toBe(PASSWORD);
  });

  it('refuses a value sealed with another key', () => {
    const sealed = passwordSealer(randomBytes(32)).seal(PASSWORD);
    expect(() => passwordSealer(KEY).unseal(sealed)).toThrow(SealedPasswordError);
  });

  it('refuses a tampered value: any changed byte of nonce or ciphertext', () => {
    const sealer = passwordSealer(KEY);
    const [format, nonce, body] = sealer.seal(PASSWORD).split('.') as [string, string, string];
    const flip = (text: string, at: number) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[at] = (bytes[at] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    expect(() => sealer.unseal(`${format}.${flip(nonce, 0)}.${body}`)).toThrow(SealedPasswordError);
    expect(() => sealer.unseal(`${format}.${nonce}.${flip(body, 0)}`)).toThrow(SealedPasswordError);
    expect(() => sealer.unseal(`${format}.${nonce}.${flip(body, Buffer.from(body, 'base64url').length - 1)}`)).toThrow(SealedPasswordError);
  });

  it('refuses another format, a value cut short, and garbage, with a typed error', () => {
    const sealer = passwordSealer(KEY);
    const sealed = sealer.seal(PASSWORD);
    for (const bad of [sealed.replace(/^v1/, 'v2'), sealed.slice(0, 30), 'v1..', '', 'plaintext', `${sealed}.x`]) {
      expect(() => sealer.unseal(bad)).toThrow(SealedPasswordError);
    }
  });

  it('reads a key as base64 (openssl rand -base64 32), base64url or hex, and refuses any other length', () => {
    expect(parseCalendarKey(KEY.toString('base64'))).toEqual(KEY);
    expect(parseCalendarKey(KEY.toString('base64url'))).toEqual(KEY);
    expect(parseCalendarKey(`${KEY.toString('hex')}\n`)).toEqual(KEY);
    for (const bad of [
      '',
      'short',
      randomBytes(16).toString('base64'),
      randomBytes(31).toString('hex'),
      randomBytes(48).toString('base64'),
    ]) {
      expect(() => parseCalendarKey(bad)).toThrow(CalendarKeyError);
    }
  });
});
