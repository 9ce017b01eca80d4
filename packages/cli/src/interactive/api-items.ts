// The shapes the interactive commands read from the API (the directory
// operations of core's directory-view.ts, and bookings), as plain types:
// the UI gets data, not schemas.

import type { Question } from '@schedule/core';

/** An item of `list_event_types`. */
export interface EventTypeItem {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly owner: { readonly user_id: string; readonly username: string };
  readonly duration_minutes: number;
  readonly status: 'on' | 'off';
  readonly recurring: 'on' | 'off';
  readonly timezone: string;
  /** The booking form; missing from a server older than the questions. */
  readonly questions?: readonly Question[];
}

/** An item of `list_people`. */
export interface PersonItem {
  readonly user_id: string;
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly timezone: string;
}

/** The fields of a booking the interactive views show. */
export interface BookingItem {
  readonly uid: string;
  /** Its event type, whose free times a reschedule picks from. */
  readonly event_type_id?: string;
  readonly title: string;
  readonly status: string;
  readonly start_at: string;
  readonly end_at: string;
  readonly host?: { readonly username: string } | null;
  readonly attendees?: readonly { readonly email: string; readonly name?: string }[];
}

/** `owner/slug · 30 min`: how an event type is told apart in a list. */
export function eventTypeHint(e: EventTypeItem): string {
  return `${e.owner.username}/${e.slug} · ${e.duration_minutes} min`;
}
