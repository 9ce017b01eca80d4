import type { Principal } from '../auth/principal.js';

/**
 * Who a hold belongs to: the token that made it, or, on the booking page,
 * the one visitor whose form asked for it. Every visitor of a host shares
 * the page's token (auth/visitor.ts), so the page names each visitor's form
 * apart; a visitor without one holds nothing and owns no hold. Only the
 * holder may book or release a hold, and only the holder's own holds leave
 * a time free for it.
 */
export function holderOf(principal: Principal): string | null {
  const { credential } = principal;
  if (credential.kind !== 'visitor') return principal.tokenId;
  // Stryker disable next-line ConditionalExpression: equivalent: a manage grant carries no holder, so the second test alone says null for it too; the first says why.
  if (credential.grant.kind !== 'book' || credential.grant.holder === undefined) return null;
  return `${principal.tokenId}:${credential.grant.holder}`;
}

/**
 * Whose holds a reader of availability leaves out: the caller's own. A
 * caller that owns no holds (a background series write, a manage link)
 * leaves none out, since no hold names the empty holder.
 */
export function ownHolds(principal: Principal | null): string {
  return (principal && holderOf(principal)) ?? '';
}
