import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FORM_TOKEN_TTL_MS, issueFormToken, readFormToken } from '../src/form-token.js';

// Form tokens (form-token.ts): a nonce, when it stops being accepted, and an HMAC of both and the form's action.

const KEY = 'k'.repeat(43);
const ACTION = '/@alice/intro/book';
const NOW = Date.parse('2026-03-02T09:00:00.000Z');
const NONCE = 'AAAAAAAAAAAAAAAAAAAAAA';
const EXPIRES = (NOW + FORM_TOKEN_TTL_MS) / 1000;

const macOf = (nonce: string, expiresAt: string, action = ACTION, key = KEY) =>
  createHmac('sha256', key).update(`schedule page form v1\n${nonce}\n${expiresAt}\n${action}`).digest('base64url');

describe('form tokens', () => {
  const token = issueFormToken(KEY, ACTION, NOW, NONCE);

  it('is the nonce, the expiry in seconds two hours on, and the HMAC of both and the action, bound to its purpose', () => {
    expect(FORM_TOKEN_TTL_MS).toBe(7_200_000);
    expect(token).toBe(`${NONCE}.${EXPIRES}.${macOf(NONCE, String(EXPIRES))}`);
  });

  it('rounds an expiry inside a second up', () => {
    expect(issueFormToken(KEY, ACTION, NOW + 1, NONCE).split('.')[1]).toBe(String(EXPIRES + 1));
  });

  it('makes a fresh random nonce of 22 base64url characters for each form', () => {
    const [a, b] = [issueFormToken(KEY, ACTION, NOW), issueFormToken(KEY, ACTION, NOW)];
    expect(a.split('.')[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.split('.')[0]).not.toBe(b.split('.')[0]);
    expect(readFormToken(KEY, a, ACTION, NOW)).toEqual({ kind: 'valid', nonce: a.split('.')[0] });
  });

  it('reads back its nonce until it expires, and as expired from then on', () => {
    expect(readFormToken(KEY, token, ACTION, NOW)).toEqual({ kind: 'valid', nonce: NONCE });
    expect(readFormToken(KEY, token, ACTION, EXPIRES * 1000 - 1)).toEqual({ kind: 'valid', nonce: NONCE });
    expect(readFormToken(KEY, token, ACTION, EXPIRES * 1000)).toEqual({ kind: 'expired' });
  });

  it('is refused for another form, under another key, and when any part is changed', () => {
    expect(readFormToken(KEY, token, '/@alice/other/book', NOW)).toEqual({ kind: 'invalid' });
    expect(readFormToken('o'.repeat(43), token, ACTION, NOW)).toEqual({ kind: 'invalid' });
    const [nonce, expiresAt, mac] = token.split('.') as [string, string, string];
    const changed = [
      `B${nonce.slice(1)}.${expiresAt}.${mac}`,
      `${nonce}.${Number(expiresAt) + 3600}.${mac}`,
      `${nonce}.${expiresAt}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      // A MAC without the purpose.
      `${nonce}.${expiresAt}.${createHmac('sha256', KEY).update(`${nonce}\n${expiresAt}\n${ACTION}`).digest('base64url')}`,
    ];
    for (const presented of changed) expect(readFormToken(KEY, presented, ACTION, NOW)).toEqual({ kind: 'invalid' });
  });

  it('an expired token that was never signed is invalid, not expired', () => {
    expect(readFormToken(KEY, `${NONCE}.1.${'A'.repeat(43)}`, ACTION, NOW)).toEqual({ kind: 'invalid' });
  });

  it('refuses a token of the wrong shape even when its HMAC holds', () => {
    const signed = (nonce: string, expiresAt: string) => `${nonce}.${expiresAt}.${macOf(nonce, expiresAt)}`;
    const wrongShape = [
      undefined,
      '',
      token.slice(1),
      `${token}.`,
      `x${token}`,
      `${token}x`,
      signed(NONCE.slice(1), '9999999999'),
      signed(`${NONCE}A`, '9999999999'),
      signed(`${NONCE.slice(1)}+`, '9999999999'),
      signed(NONCE, '9'.repeat(12)),
      signed(NONCE, ''),
      signed(NONCE, '-1'),
      signed(NONCE, '1e10'),
      `${NONCE}.${EXPIRES}.${macOf(NONCE, String(EXPIRES))}=`,
    ];
    for (const presented of wrongShape) expect(readFormToken(KEY, presented, ACTION, 0)).toEqual({ kind: 'invalid' });
    // The longest expiry it reads, and a nonce holding - and _, are read.
    expect(readFormToken(KEY, signed(NONCE, '9'.repeat(11)), ACTION, 0)).toEqual({ kind: 'valid', nonce: NONCE });
    const edgy = `-_${NONCE.slice(2)}`;
    expect(readFormToken(KEY, signed(edgy, '9'.repeat(11)), ACTION, 0)).toEqual({ kind: 'valid', nonce: edgy });
  });
});
