/**
 * The attendee's display name (docs/api, `attendee.name`): given, else built
 * from first and last name, else the email.
 */
export function displayName(attendee: {
  email: string;
  name?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
}): string {
  if (attendee.name && attendee.name.trim() !== '') return attendee.name;
  const built = [attendee.first_name, attendee.last_name].filter((p) => p && p.trim() !== '').join(' ');
  return built !== '' ? built : attendee.email;
}

/** The title a booking gets: the event type, then who meets whom. */
export function bookingTitle(eventTypeName: string, hostName: string, attendeeName: string): string {
  return `${eventTypeName} between ${hostName} and ${attendeeName}`;
}
