import type { Visibility } from '../storage/schema.js';

// Where an event type's booking page lives (docs/booking-page.md "Addresses").
// The page's routes and every `booking_url` are written from these two
// functions, so an address the API hands out is always one the page serves.

/**
 * The path of a host's page (`/@alice`) or of one event type's booking page
 * (`/@alice/intro`). `@` begins no path the API, MCP, OAuth, docs or
 * well-known routes use, and no username (person-fields.ts), so these can
 * never clash with them or with each other.
 */
export function bookingPagePath(username: string, slug?: string): string {
  const host = `/@${encodeURIComponent(username)}`;
  return slug === undefined ? host : `${host}/${encodeURIComponent(slug)}`;
}

/**
 * Where the booking pages are served: the server's public address
 * (`PUBLIC_URL`, else where it listens), or undefined where no server serves
 * them (the CLI on its own database without PUBLIC_URL). Read per call: the
 * address of a server on port 0 is known only once it listens.
 */
export type PagesAddress = () => string | undefined;

/**
 * An event type's `booking_url`: its booking page's absolute address, or
 * null when no visitor can book it there (private, or deleted) or no server
 * serves pages. A hidden type has one: it is bookable by its link, only not
 * listed on the host's page.
 */
export function bookingUrlOf(
  pages: PagesAddress | undefined,
  type: { readonly username: string; readonly slug: string; readonly visibility: Visibility; readonly archived: boolean },
): string | null {
  const base = pages?.();
  if (base === undefined || type.visibility === 'private' || type.archived) return null;
  return `${base.replace(/\/+$/, '')}${bookingPagePath(type.username, type.slug)}`;
}
