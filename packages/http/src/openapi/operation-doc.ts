import type { OperationName } from '@schedule/core';

/** The groups the document lists operations under, with what each holds. */
export const TAGS = {
  Series: 'Recurring series: a pattern that books a run of occurrences for one attendee. Occurrences are bookings.',
  Bookings: 'One meeting between a host and an attendee on an event type; series occurrences too.',
  Slots: 'Start times at which an event type can be booked, computed on request and never stored.',
  Holds: 'A free start kept for one caller for a few minutes while someone decides, then booked with `hold_id` or released.',
  Times:
    'A few free times found in the attendee’s terms (days, part of day, zone), each held and shown on both clocks, then one booked by its id (docs/api/times.md).',
  Webhooks:
    'Subscriptions of the caller’s own account to events, delivered as signed POSTs (docs/webhooks.md); their secrets and deliveries.',
  Calendars:
    'CalDAV accounts of the people the caller acts for: where busy times are read and bookings written (docs/calendars.md). Passwords are sealed and never shown.',
  EventTypes:
    'What can be booked and how: duration, rules, location, booking form. Changing one changes future slots, never existing bookings.',
  Availability:
    'When a person can be booked: weekly working hours, their zone and date overrides (docs/api/availability.md), and time off (docs/api/time-off.md), as slots, checks and bookings read them.',
  Directory: 'Who the caller is, whom it may act for, and what it can book. Any valid token may read them.',
  People:
    'The people of the organization and the caller’s own access tokens (docs/api/people.md): admins and owners add, change and deactivate people; everyone edits their profile and tokens.',
  Meta: 'This document, and the probes an orchestrator calls. No token, no rate limit.',
  OAuth:
    'The authorization server: discovery, the authorization code flow with PKCE, tokens, revocation, introspection, client registration (docs/oauth.md).',
} as const;

export type Tag = keyof typeof TAGS;

/** What the document says about one operation beyond what the registry declares. */
export interface OperationDoc {
  readonly tag: Tag;
  readonly summary: string;
  /** Markdown, in the project's words; docs/api/endpoints.md has the long form. */
  readonly description: string;
  /** The name of the component its `data` (a list's items) is shown as. */
  readonly resource: string;
  /** The success carries the resource's version as `ETag` (requests.md "Where ETag appears"). */
  readonly etag?: boolean;
  /** The success is `201 Created` with a `Location`. */
  readonly created?: boolean;
  /** The success is `202 Accepted`: something was queued (a webhook delivery). */
  readonly accepted?: boolean;
  /** The request body may be left out (a cancel without a reason). */
  readonly optionalBody?: boolean;
  /** The component its request body is shown as, when it takes another operation's body; else `<Name>Body`. */
  readonly body?: string;
  /** A request body, as a client would send it. */
  readonly requestExample?: unknown;
  /** The success's `data`: the object, or one item of a list. */
  readonly responseExample: unknown;
}

/** Said of every list and range query. */
export const RANGE = 'Unknown query parameters are ignored.';

/** Some operations' docs, by name; operation-docs.ts joins them and checks that none is missing. */
export type OperationDocs = Partial<Record<OperationName, OperationDoc>>;
