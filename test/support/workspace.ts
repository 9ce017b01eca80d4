/**
 * The workspace every black-box test starts from: four users with fixed ids
 * (an owner, a manager, the user the manager manages, an unrelated user), one
 * event type each, tokens of every kind the auth rules distinguish, and
 * bookings imported around the current day. Tests assert against the values
 * returned here, never against ids they read back from the server.
 */

export const ALL_SCOPES = [
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

export const USER_IDS = {
  owner: 'b1000000-0000-4000-8000-000000000001',
  manager: 'b1000000-0000-4000-8000-000000000002',
  member: 'b1000000-0000-4000-8000-000000000003',
  other: 'b1000000-0000-4000-8000-000000000004',
} as const;

export type UserKey = keyof typeof USER_IDS;

export const USERNAMES: Record<UserKey, string> = { owner: 'olivia', manager: 'mason', member: 'uma', other: 'oscar' };
export const USER_EMAILS: Record<UserKey, string> = {
  owner: 'olivia@acme.test',
  manager: 'mason@acme.test',
  member: 'uma@acme.test',
  other: 'oscar@acme.test',
};
export const USER_NAMES: Record<UserKey, string> = {
  owner: 'Olivia Owner',
  manager: 'Mason Manager',
  member: 'Uma Member',
  other: 'Oscar Other',
};

export const EVENT_TYPES: Record<UserKey, { id: string; slug: string; name: string; duration: number }> = {
  owner: { id: 'e1000000-0000-4000-8000-000000000001', slug: 'owner-call', name: 'Owner call', duration: 30 },
  manager: { id: 'e1000000-0000-4000-8000-000000000002', slug: 'manager-call', name: 'Manager call', duration: 45 },
  member: { id: 'e1000000-0000-4000-8000-000000000003', slug: 'member-call', name: 'Member call', duration: 60 },
  other: { id: 'e1000000-0000-4000-8000-000000000004', slug: 'other-call', name: 'Other call', duration: 30 },
};

/** Token secrets. All are at least 16 characters, as the workspace schema asks. */
export const SECRETS = {
  owner: 'bb-secret-owner-all-scopes',
  ownerSecond: 'bb-secret-owner-second-pat',
  manager: 'bb-secret-manager-all-scopes',
  member: 'bb-secret-member-all-scopes',
  other: 'bb-secret-other-all-scopes',
  /** The owner's, with every scope except bookings:update. */
  noUpdate: 'bb-secret-owner-no-update',
  revoked: 'bb-secret-owner-revoked',
  expired: 'bb-secret-owner-expired',
  /** An OAuth client acting for the member. */
  oauth: 'bb-secret-oauth-client-member',
} as const;

export const OAUTH_CLIENT_ID = 'bb-oauth-client';

export interface Limits {
  pat_per_minute?: number;
  oauth_per_minute?: number;
  anonymous_per_minute?: number;
  /** The authorization server's own buckets, per client address (docs/api/requests.md "Rate limits"). */
  oauth_authorize_per_minute?: number;
  oauth_token_per_minute?: number;
  oauth_revoke_per_minute?: number;
  oauth_introspect_per_minute?: number;
  oauth_register_per_minute?: number;
  oauth_pages_per_minute?: number;
  sign_in_per_minute?: number;
}

/** One imported booking, as the test expects the server to show it. */
export interface FixtureBooking {
  readonly uid: string;
  readonly host: UserKey;
  readonly hostId: string;
  readonly eventTypeId: string;
  readonly startAt: string;
  readonly endAt: string;
  readonly status: 'confirmed' | 'canceled';
  readonly attendeeEmail: string;
  readonly attendeeName: string;
  readonly metadata: Record<string, unknown>;
  /** The imported form answers; undefined when the entry had none. */
  readonly responses: Record<string, unknown> | undefined;
  readonly cancelledAt: string | null;
  readonly cancellationReason: string | null;
}

interface BookingSpec {
  host: UserKey;
  /** Days from today (UTC) and the UTC hour of the start. */
  day: number;
  hour: number;
  status?: 'confirmed' | 'canceled';
  email: string;
  name: string;
  metadata?: Record<string, unknown>;
  responses?: Record<string, unknown>;
}

const BOOKING_SPECS = {
  ownerSoon: {
    host: 'owner',
    day: 1,
    hour: 9,
    email: 'dana@example.com',
    name: 'Dana Client',
    metadata: { source: 'import', keep: 'yes' },
    responses: { topic: 'Pricing' },
  },
  ownerLater: { host: 'owner', day: 2, hour: 10, email: 'erin@example.com', name: 'Erin Park' },
  ownerPast: { host: 'owner', day: -1, hour: 9, email: 'dana@example.com', name: 'Dana Client' },
  ownerCanceled: { host: 'owner', day: 3, hour: 9, status: 'canceled', email: 'Casey.Case@Example.com', name: 'Casey Case' },
  managerSoon: { host: 'manager', day: 1, hour: 11, email: 'gus@example.com', name: 'Gus Partner' },
  memberSoon: { host: 'member', day: 2, hour: 12, email: 'hana@example.com', name: 'Hana Guest' },
  memberPast: { host: 'member', day: -2, hour: 12, email: 'ivan@example.com', name: 'Ivan Past' },
  otherSoon: { host: 'other', day: 4, hour: 9, email: 'jo@example.com', name: 'Jo Stranger' },
  // Owner bookings that the PATCH and error tests change, each test its own.
  scratch1: { host: 'owner', day: 6, hour: 8, email: 'k1@example.com', name: 'Kim One' },
  scratch2: { host: 'owner', day: 6, hour: 9, email: 'k2@example.com', name: 'Kim Two', metadata: { a: 1, b: { deep: true } } },
  scratch3: { host: 'owner', day: 6, hour: 10, email: 'k3@example.com', name: 'Kim Three', responses: { topic: 'Old', extra: 'x' } },
  scratch4: { host: 'owner', day: 6, hour: 11, email: 'k4@example.com', name: 'Kim Four' },
  scratch5: { host: 'owner', day: 6, hour: 12, email: 'k5@example.com', name: 'Kim Five' },
  scratch6: { host: 'owner', day: 6, hour: 13, email: 'k6@example.com', name: 'Kim Six' },
  scratch7: { host: 'owner', day: 6, hour: 14, email: 'k7@example.com', name: 'Kim Seven' },
  scratch8: { host: 'owner', day: 6, hour: 15, email: 'k8@example.com', name: 'Kim Eight' },
  // Enough of the unrelated user's bookings that the owner's list exceeds the default page of 20.
  bulk1: { host: 'other', day: 7, hour: 1, email: 'bulk@example.com', name: 'Bulk Guest' },
  bulk2: { host: 'other', day: 7, hour: 2, email: 'bulk@example.com', name: 'Bulk Guest' },
  bulk3: { host: 'other', day: 7, hour: 3, email: 'bulk@example.com', name: 'Bulk Guest' },
  bulk4: { host: 'other', day: 7, hour: 4, email: 'bulk@example.com', name: 'Bulk Guest' },
  bulk5: { host: 'other', day: 7, hour: 5, email: 'bulk@example.com', name: 'Bulk Guest' },
  bulk6: { host: 'other', day: 7, hour: 6, email: 'bulk@example.com', name: 'Bulk Guest' },
  bulk7: { host: 'other', day: 7, hour: 7, email: 'bulk@example.com', name: 'Bulk Guest' },
  bulk8: { host: 'other', day: -3, hour: 7, email: 'bulk@example.com', name: 'Bulk Guest' },
} satisfies Record<string, BookingSpec>;

export type BookingName = keyof typeof BOOKING_SPECS;

export interface TestWorkspace {
  /** The workspace object; pass it to `writeWorkspace`. */
  readonly workspace: Record<string, unknown>;
  readonly bookings: Readonly<Record<BookingName, FixtureBooking>>;
  /** Every imported booking. */
  readonly allBookings: readonly FixtureBooking[];
}

const DAY_MS = 86_400_000;

function bookingUid(index: number): string {
  return `c1000000-0000-4000-8000-${(index + 1).toString(16).padStart(12, '0')}`;
}

/** A workspace with the fixed users, event types and tokens, bookings placed around `now`. */
export function buildWorkspace(options: { limits?: Limits; now?: number } = {}): TestWorkspace {
  const now = options.now ?? Date.now();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const keys = Object.keys(USER_IDS) as UserKey[];

  const bookings = {} as Record<BookingName, FixtureBooking>;
  const imported: Record<string, unknown>[] = [];
  for (const [index, [name, spec]] of (Object.entries(BOOKING_SPECS) as [BookingName, BookingSpec][]).entries()) {
    const startMs = today + spec.day * DAY_MS + spec.hour * 3_600_000;
    const eventType = EVENT_TYPES[spec.host];
    const status = spec.status ?? 'confirmed';
    const uid = bookingUid(index);
    const cancelledAt = status === 'canceled' ? new Date(now - DAY_MS).toISOString() : null;
    bookings[name] = {
      uid,
      host: spec.host,
      hostId: USER_IDS[spec.host],
      eventTypeId: eventType.id,
      startAt: new Date(startMs).toISOString(),
      endAt: new Date(startMs + eventType.duration * 60_000).toISOString(),
      status,
      attendeeEmail: spec.email,
      attendeeName: spec.name,
      metadata: spec.metadata ?? {},
      responses: spec.responses,
      cancelledAt,
      cancellationReason: status === 'canceled' ? 'Client asked' : null,
    };
    imported.push({
      uid,
      event_type: eventType.slug,
      host: USERNAMES[spec.host],
      start: new Date(startMs).toISOString(),
      attendee: { email: spec.email, name: spec.name, timezone: 'Europe/London' },
      status,
      ...(cancelledAt ? { cancellation_reason: 'Client asked', cancelled_at: cancelledAt } : {}),
      ...(spec.metadata ? { metadata: spec.metadata } : {}),
      ...(spec.responses ? { responses: spec.responses } : {}),
    });
  }

  const token = (name: string, user: UserKey, secret: string, extra: Record<string, unknown> = {}) => ({
    name,
    user: USERNAMES[user],
    secret,
    scopes: [...ALL_SCOPES],
    ...extra,
  });

  const workspace: Record<string, unknown> = {
    organization: { name: 'Blackbox Org' },
    ...(options.limits ? { limits: options.limits } : {}),
    users: keys.map((key) => ({
      id: USER_IDS[key],
      username: USERNAMES[key],
      email: USER_EMAILS[key],
      name: USER_NAMES[key],
      timezone: 'UTC',
      role: key === 'owner' ? 'owner' : key === 'manager' ? 'manager' : 'user',
      ...(key === 'manager' ? { manages: [USERNAMES.member] } : {}),
    })),
    event_types: keys.map((key) => ({
      id: EVENT_TYPES[key].id,
      owner: USERNAMES[key],
      slug: EVENT_TYPES[key].slug,
      name: EVENT_TYPES[key].name,
      duration_minutes: EVENT_TYPES[key].duration,
      questions: [{ id: 'topic', label: 'Topic', required: false }],
    })),
    tokens: [
      token('owner-all', 'owner', SECRETS.owner),
      token('owner-second', 'owner', SECRETS.ownerSecond),
      token('manager-all', 'manager', SECRETS.manager),
      token('member-all', 'member', SECRETS.member),
      token('other-all', 'other', SECRETS.other),
      token('owner-no-update', 'owner', SECRETS.noUpdate, { scopes: ALL_SCOPES.filter((s) => s !== 'bookings:update') }),
      token('owner-revoked', 'owner', SECRETS.revoked, { revoked: true }),
      token('owner-expired', 'owner', SECRETS.expired, { expires_at: new Date(now - 3_600_000).toISOString() }),
      token('member-oauth', 'member', SECRETS.oauth, { oauth_client_id: OAUTH_CLIENT_ID }),
    ],
    bookings: imported,
  };

  return { workspace, bookings, allBookings: Object.values(bookings) };
}

/** The bookings a user sees (docs/api/choices.md: hosted by someone they may act for). */
export function visibleTo(user: UserKey, all: readonly FixtureBooking[]): FixtureBooking[] {
  const set: readonly UserKey[] =
    user === 'owner' ? ['owner', 'manager', 'member', 'other'] : user === 'manager' ? ['manager', 'member'] : [user];
  return all.filter((b) => set.includes(b.host));
}
