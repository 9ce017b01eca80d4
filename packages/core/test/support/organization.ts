import { authenticate } from '../../src/auth/authenticate.js';
import type { Principal } from '../../src/auth/principal.js';
import type { Clock } from '../../src/clock.js';
import { randomIds } from '../../src/ids.js';
import type { Store } from '../../src/storage/store.js';
import { type LoadReport, loadWorkspace } from '../../src/workspace/load-workspace.js';
import { parseWorkspace } from '../../src/workspace/parse-workspace.js';

// One small organization that the storage suites share: an owner, an admin,
// a manager with one managed user, and a user nobody manages. The ids end in
// hex letters so that tests can send them in upper case.

export const ALICE = '10000000-0000-4000-8000-00000000000a';
export const MIA = '10000000-0000-4000-8000-00000000000b';
export const URSULA = '10000000-0000-4000-8000-00000000000c';
export const OSCAR = '10000000-0000-4000-8000-00000000000d';
export const ADA = '10000000-0000-4000-8000-00000000000e';

export const INTRO = '20000000-0000-4000-8000-00000000000a';
export const CONSULT = '20000000-0000-4000-8000-00000000000b';
export const CHAT = '20000000-0000-4000-8000-00000000000c';

export const SECRET = {
  aliceAll: 'pat_alice_all_scopes',
  aliceReadOnly: 'pat_alice_read_only',
  mia: 'pat_mia_bookings_rw',
  ursula: 'pat_ursula_bookings_rw',
  oscar: 'pat_oscar_bookings_rw',
  ada: 'pat_ada_bookings_rw',
} as const;

const BOOKINGS_RW = ['bookings:read', 'bookings:update'];

/** The event type each host owns, by username. */
export const EVENT_TYPE_OF = {
  alice: { id: INTRO, slug: 'intro', name: 'Intro call', minutes: 30 },
  ursula: { id: CONSULT, slug: 'consult', name: 'Consultation', minutes: 45 },
  oscar: { id: CHAT, slug: 'chat', name: 'Chat', minutes: 15 },
} as const;

export type Host = keyof typeof EVENT_TYPE_OF;

export const HOST = {
  alice: { user_id: ALICE, username: 'alice', email: 'alice@acme.test', name: 'Alice Host' },
  ursula: { user_id: URSULA, username: 'ursula', email: 'ursula@acme.test', name: 'Ursula User' },
  oscar: { user_id: OSCAR, username: 'oscar', email: 'oscar@acme.test', name: 'Oscar Other' },
} as const;

/** The workspace JSON of the organization, with the given bookings. */
export function organization(bookings: readonly object[] = []): Record<string, unknown> {
  return {
    organization: { name: 'Acme' },
    users: [
      { id: ALICE, username: 'alice', email: 'alice@acme.test', name: 'Alice Host', timezone: 'Europe/Berlin', role: 'owner' },
      { id: MIA, username: 'mia', email: 'mia@acme.test', name: 'Mia Manager', role: 'manager', manages: ['ursula'] },
      { id: URSULA, username: 'ursula', email: 'ursula@acme.test', name: 'Ursula User', role: 'user' },
      { id: OSCAR, username: 'oscar', email: 'oscar@acme.test', name: 'Oscar Other', role: 'user' },
      { id: ADA, username: 'ada', email: 'ada@acme.test', name: 'Ada Admin', role: 'admin' },
    ],
    event_types: (Object.keys(EVENT_TYPE_OF) as Host[]).map((owner) => {
      const { id, slug, name, minutes } = EVENT_TYPE_OF[owner];
      return { id, owner, slug, name, duration_minutes: minutes };
    }),
    tokens: [
      {
        name: 'alice-all',
        user: 'alice',
        secret: SECRET.aliceAll,
        scopes: ['bookings:read', 'bookings:create', 'bookings:cancel', 'bookings:reschedule', 'bookings:update'],
      },
      { name: 'alice-read', user: 'alice', secret: SECRET.aliceReadOnly, scopes: ['bookings:read'] },
      { name: 'mia', user: 'mia', secret: SECRET.mia, scopes: BOOKINGS_RW },
      { name: 'ursula', user: 'ursula', secret: SECRET.ursula, scopes: BOOKINGS_RW },
      { name: 'oscar', user: 'oscar', secret: SECRET.oscar, scopes: BOOKINGS_RW },
      { name: 'ada', user: 'ada', secret: SECRET.ada, scopes: BOOKINGS_RW },
    ],
    bookings,
  };
}

export interface BookingEntry {
  uid: string;
  host: Host;
  start: string;
  email?: string;
  name?: string;
  status?: 'confirmed' | 'canceled';
  metadata?: Record<string, unknown>;
  responses?: Record<string, unknown>;
}

/** A workspace `bookings[]` entry on the host's own event type. */
export function bookingEntry(entry: BookingEntry): Record<string, unknown> {
  return {
    uid: entry.uid,
    event_type: EVENT_TYPE_OF[entry.host].slug,
    host: entry.host,
    start: entry.start,
    attendee: { email: entry.email ?? 'bob@example.com', name: entry.name ?? 'Bob', timezone: 'UTC' },
    status: entry.status ?? 'confirmed',
    ...(entry.metadata ? { metadata: entry.metadata } : {}),
    ...(entry.responses ? { responses: entry.responses } : {}),
  };
}

/** Loads the organization with these bookings, through the public parser and loader. */
export async function loadOrganization(deps: { store: Store; clock: Clock }, bookings: readonly BookingEntry[] = []): Promise<LoadReport> {
  const workspace = parseWorkspace(JSON.stringify(organization(bookings.map(bookingEntry))));
  return loadWorkspace({ ...deps, ids: randomIds }, workspace);
}

/** The principal of a token secret; fails the test when the secret does not authenticate. */
export async function principalOf(deps: { store: Store; clock: Clock }, secret: string): Promise<Principal> {
  const principal = await authenticate(deps, secret);
  if (!principal) throw new Error(`the token ${secret} did not authenticate`);
  return principal;
}
