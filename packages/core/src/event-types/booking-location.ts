import type { ConferenceLinks } from '../conference-links.js';
import type { EventTypeLocation } from './event-type-fields.js';

/**
 * The `location` a new booking of an event type carries: a conference link
 * made for that booking, or the type's fixed link, number or address.
 * Read when the booking is made: a later change of the type's location
 * leaves existing bookings where they were.
 */
export function bookingLocationOf(
  location: EventTypeLocation,
  links: ConferenceLinks,
  bookingUid: string,
): { readonly type: EventTypeLocation['type']; readonly url: string | null; readonly value: string | null } {
  switch (location.type) {
    case 'conference':
      return { type: 'conference', url: links.linkFor(bookingUid), value: null };
    case 'link':
      return { type: 'link', url: location.url, value: null };
    case 'phone':
    case 'in_person':
      return { type: location.type, url: null, value: location.value };
  }
}
