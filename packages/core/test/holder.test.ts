import { describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.js';
import { visitorPrincipal } from '../src/auth/visitor.js';
import { holderOf, ownHolds } from '../src/holds/holder.js';

// Who owns a hold (docs/api/holds.md): a token, or one form of the booking page.

const HOST = '50000000-0000-4000-8000-00000000000a';
const token = { tokenId: 'tok-1', credential: { kind: 'pat' } } as unknown as Principal;

describe('holderOf', () => {
  it('is the token for a token holder', () => {
    expect(holderOf(token)).toBe('tok-1');
    expect(ownHolds(token)).toBe('tok-1');
  });

  it('is the page token and the form for a visitor with a form, apart for each form', () => {
    expect(holderOf(visitorPrincipal({ kind: 'book', hostId: HOST, holder: 'form-a' }))).toBe(`visitor:book:${HOST}:form-a`);
    expect(holderOf(visitorPrincipal({ kind: 'book', hostId: HOST, holder: 'form-b' }))).toBe(`visitor:book:${HOST}:form-b`);
  });

  it('is no one for a visitor without a form, or with a manage link: they own no holds and leave none out', () => {
    expect(holderOf(visitorPrincipal({ kind: 'book', hostId: HOST }))).toBeNull();
    expect(holderOf(visitorPrincipal({ kind: 'manage', bookingUid: HOST }))).toBeNull();
    expect(ownHolds(visitorPrincipal({ kind: 'book', hostId: HOST }))).toBe('');
    expect(ownHolds(null)).toBe('');
  });
});
