import { type Kysely, type Migration, sql } from 'kysely';

// The schema's changes from the self-service issues on (time off, people,
// visibility, booking rules, holds, teams), kept apart from the foundation's
// (migrations.ts) so each file reads as one stretch of the schema's history.
// Kysely runs every migration in the order of its name, whichever file holds it.

export const selfServiceMigrations: Record<string, Migration> = {
  '0010_time_off': {
    async up(db: Kysely<any>) {
      // A host's time off (docs/api/time-off.md): ranges that are busy time
      // for every event type of theirs. Availability asks for a host's ranges
      // overlapping a window (end_at > window start, start_at < window end).
      // A range has no length bound worth scanning back by, so the index
      // leads with end_at: the scan starts at the window and reads only the
      // host's ranges that have not ended by then, and start_at beside it
      // decides the other half without reading the row.
      await db.schema
        .createTable('time_off')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('start_at', 'text', (c) => c.notNull())
        .addColumn('end_at', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('time_off_user_end').on('time_off').columns(['user_id', 'end_at', 'start_at']).execute();
      // The list's keyset order.
      await db.schema.createIndex('time_off_user_start').on('time_off').columns(['user_id', 'start_at', 'id']).execute();
    },
  },
  '0011_people': {
    async up(db: Kysely<any>) {
      // People became a resource of the API (docs/api/people.md): a version
      // for ETag and If-Match, every existing user at 1; and deactivation,
      // which keeps the user and their bookings but stops their tokens.
      await db.schema
        .alterTable('users')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('users').addColumn('deactivated_at', 'text').execute();
    },
  },
  '0012_event_type_visibility': {
    async up(db: Kysely<any>) {
      // Who may book an event type without a token, for the booking page
      // (docs/api/event-types.md "Visibility"): every existing type is public,
      // as a new one is, so each has a booking link as on Calendly or Cal.com.
      await db.schema
        .alterTable('event_types')
        .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public'))
        .execute();
    },
  },
  '0013_no_shows': {
    async up(db: Kysely<any>) {
      // How long before a booking's start its attendee may still cancel or
      // move it (docs/api/event-types.md "Notice for cancel and reschedule"):
      // 0, no notice, for every existing type, which is what they allowed.
      // No-shows themselves need no column: the bookings had them from the start.
      await db.schema
        .alterTable('event_types')
        .addColumn('cancel_notice_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('event_types')
        .addColumn('reschedule_notice_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0014_confirmation': {
    async up(db: Kysely<any>) {
      // An event type may require the host's confirmation of each booking
      // (docs/api/event-types.md); every existing type does not.
      await db.schema
        .alterTable('event_types')
        .addColumn('requires_confirmation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // The pass that declines pending bookings left unanswered past their
      // start reads only these: a partial index keeps it a short scan however
      // many bookings there are.
      await db.schema
        .createIndex('bookings_pending_start')
        .on('bookings')
        .columns(['start_at', 'uid'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
    },
  },
  '0015_booking_limits': {
    async up(db: Kysely<any>) {
      // Limits and seats per event type (docs/api/event-types.md "Limits and
      // seats"): null is no limit and one attendee per booking, as every
      // existing type had.
      await db.schema.alterTable('event_types').addColumn('max_bookings_per_day', 'integer').execute();
      await db.schema.alterTable('event_types').addColumn('max_bookings_per_week', 'integer').execute();
      await db.schema.alterTable('event_types').addColumn('seats', 'integer').execute();
    },
  },
  '0016_holds': {
    async up(db: Kysely<any>) {
      // A start held for one caller for a few minutes (docs/api/holds.md).
      // A row past `expires_at` blocks nothing: every reader compares it with
      // the clock, so no sweeper is needed for correctness.
      await db.schema
        .createTable('holds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id'))
        .addColumn('host_user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('start_at', 'text', (c) => c.notNull())
        .addColumn('end_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // The overlap read of every availability check: a short range scan of the host's holds.
      await db.schema.createIndex('holds_host_start').on('holds').columns(['host_user_id', 'start_at']).execute();
      // The cap on a caller's live holds of one host.
      await db.schema.createIndex('holds_token_host').on('holds').columns(['token_id', 'host_user_id', 'expires_at']).execute();
    },
  },
  '0017_team_event_types': {
    async up(db: Kysely<any>) {
      // A team event type (docs/api/teams.md): how it is scheduled, and its
      // pool of hosts as JSON (user ids with their weight and priority). A
      // pool is read whole with its type and never queried by member, so a
      // table of its own would only add a join to every read.
      await db.schema
        .alterTable('event_types')
        .addColumn('scheduling', 'text', (c) => c.notNull().defaultTo('single'))
        .execute();
      await db.schema
        .alterTable('event_types')
        .addColumn('hosts_json', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      // Every availability read takes a host's bookings with their event type (a seated type leaves its own out):
      // with the type in the covering index, the read never visits the table. A team's slots read it once per host.
      await db.schema
        .createIndex('bookings_host_start_type')
        .on('bookings')
        .columns(['host_user_id', 'start_at', 'end_at', 'status', 'uid', 'event_type_id'])
        .execute();
      await db.schema.dropIndex('bookings_host_start_covering').execute();
      // Round robin counts each host's recent bookings of the type to choose fairly: covering, so the count reads the index only.
      await db.schema
        .createIndex('bookings_type_created')
        .on('bookings')
        .columns(['event_type_id', 'created_at', 'host_user_id', 'status'])
        .execute();
    },
  },
  '0018_collective_hosts': {
    async up(db: Kysely<any>) {
      // A booking with several hosts (a collective type's, or round robin's
      // fixed hosts): the first stays `host_user_id`; the others are shown
      // from co_hosts_json and block time through booking_hosts, found by the
      // same (host, start) range as a host's own bookings.
      await db.schema
        .alterTable('bookings')
        .addColumn('co_hosts_json', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('booking_hosts')
        .addColumn('booking_uid', 'text', (c) => c.notNull().references('bookings.uid'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('start_at', 'text', (c) => c.notNull())
        .addColumn('end_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('booking_hosts_pk', ['booking_uid', 'user_id'])
        .execute();
      await db.schema.createIndex('booking_hosts_user_start').on('booking_hosts').columns(['user_id', 'start_at', 'end_at']).execute();
    },
  },
  '0019_mcp_sessions': {
    async up(db: Kysely<any>) {
      // An MCP connection over Streamable HTTP is one request after another,
      // answered by any process: the toolsets a model switched on live here,
      // by the session id the connection carries, bound to its token.
      await db.schema
        .createTable('mcp_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_id', 'text', (c) => c.notNull())
        .addColumn('toolsets', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('mcp_sessions_used').on('mcp_sessions').column('used_at').execute();
      // A token's sessions, newest first: the cap on them (sessions.ts) keeps its newest.
      await db.schema.createIndex('mcp_sessions_token').on('mcp_sessions').columns(['token_id', 'used_at']).execute();
    },
  },
  '0020_reminders': {
    async up(db: Kysely<any>) {
      // Reminders (docs/reminders.md): an event type's rules, and a host's
      // switch for all of them. Event types made before reminders keep none
      // (an upgrade does not start mailing attendees nobody chose to remind);
      // new ones take the defaults.
      await db.schema
        .alterTable('event_types')
        .addColumn('reminders_json', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('reminders', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  },
};
