/** The scopes of docs/api/overview.md "Authentication", one per group of endpoints. */
export const SCOPES = [
  'series:read',
  'series:write',
  'bookings:read',
  'bookings:create',
  'bookings:cancel',
  'bookings:reschedule',
  'bookings:update',
  'slots:read',
  'webhooks:read',
  'webhooks:write',
  'calendars:read',
  'calendars:write',
  'event_types:write',
  'availability:read',
  'availability:write',
  'people:write',
  'tokens:read',
  'tokens:write',
] as const;

export type Scope = (typeof SCOPES)[number];
