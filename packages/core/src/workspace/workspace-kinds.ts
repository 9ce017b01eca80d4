import { bookingsKind } from './kind-bookings.js';
import { eventTypesKind } from './kind-event-types.js';
import { oauthClientsKind } from './kind-oauth-clients.js';
import { organizationKind } from './kind-organization.js';
import { tokensKind } from './kind-tokens.js';
import { usersKind } from './kind-users.js';
import type { ResourceKind } from './resource-kind.js';

/**
 * Every kind a workspace file declares, in the order they are written:
 * users before the event types and tokens that name them, event types
 * before the bookings that name them.
 */
export const WORKSPACE_KINDS: readonly ResourceKind[] = [
  organizationKind,
  usersKind,
  eventTypesKind,
  tokensKind,
  bookingsKind,
  oauthClientsKind,
];
