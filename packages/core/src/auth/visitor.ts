import type { Visibility } from '../storage/schema.js';
import type { Principal, VisitorGrant } from './principal.js';
import type { Scope } from './scopes.js';

// The booking page's caller (docs/booking-page.md "Who the page acts as").
// It calls the same operations as a token holder, through `execute`, and is
// kept to its grant in two ways: its scopes name only the operations its
// grant needs, and it acts for nobody, so every list is empty and every
// lookup by id answers 404 unless one of the checks below lets it through.

/**
 * The operations each grant reaches: booking needs slots, one booking and a series; managing reads, moves and cancels one booking.
 * Never `bookings:update`: a patch and a no-show mark (bookings/no-show.ts) are the host's, not the attendee's.
 */
const GRANT_SCOPES: Readonly<Record<VisitorGrant['kind'], readonly Scope[]>> = {
  book: ['slots:read', 'bookings:create', 'series:write'],
  manage: ['slots:read', 'bookings:read', 'bookings:reschedule', 'bookings:cancel'],
};

/** The principal of an anonymous visitor holding `grant`. */
export function visitorPrincipal(grant: VisitorGrant): Principal {
  // Idempotency keys are remembered per account: a visitor's live in a space
  // of their own per host or booking, apart from any person's.
  const id = grant.kind === 'book' ? `visitor:book:${grant.hostId}` : `visitor:manage:${grant.bookingUid}`;
  return {
    tokenId: id,
    credential: { kind: 'visitor', grant },
    account: { id, username: '', email: '', name: '', timezone: 'UTC', role: 'user' },
    scopes: new Set(GRANT_SCOPES[grant.kind]),
    actsFor: { kind: 'users', ids: new Set() },
  };
}

/** The visitor's grant, or undefined for a token holder. */
function grantOf(principal: Principal): VisitorGrant | undefined {
  // Stryker disable next-line ConditionalExpression: a token holder's credential (pat, oauth) has no `grant`, so reading it answers undefined all the same (the line's other mutant, never reading it, is killed).
  return principal.credential.kind === 'visitor' ? principal.credential.grant : undefined;
}

/**
 * Whether a visitor may see and book this event type: with a booking grant,
 * the host's types that are not private; with a manage grant, the type of
 * the booking it names, whatever its visibility (the host chose to book it).
 */
export function visitorMayBook(principal: Principal, eventType: { id: string; ownerId: string; visibility: Visibility }): boolean {
  const grant = grantOf(principal);
  if (grant === undefined) return false;
  if (grant.kind === 'manage') return grant.eventTypeId === eventType.id;
  return grant.hostId === eventType.ownerId && eventType.visibility !== 'private';
}

/** Whether a visitor's booking grant names this host (a series from the page). */
export function visitorMayBookHost(principal: Principal, hostId: string): boolean {
  const grant = grantOf(principal);
  return grant?.kind === 'book' && grant.hostId === hostId;
}

/** Whether a visitor's manage grant names this booking. */
export function visitorManages(principal: Principal, bookingUid: string): boolean {
  const grant = grantOf(principal);
  return grant?.kind === 'manage' && grant.bookingUid === bookingUid;
}
