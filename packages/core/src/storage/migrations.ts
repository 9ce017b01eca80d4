import { type Kysely, type Migration, sql } from 'kysely';
import { selfServiceMigrations } from './migrations-self-service.js';

// Migrations live in code rather than files so the compiled package carries
// them. They use only column types both dialects share (see schema.ts).
export const migrations: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('organization')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('limits_json', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('manages_json', 'text', (c) => c.notNull())
        .addColumn('schedule_json', 'text')
        .addColumn('calendars_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('event_types')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('duration_minutes', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('minimum_notice_minutes', 'integer', (c) => c.notNull())
        .addColumn('future_limit_days', 'integer', (c) => c.notNull())
        .addColumn('recurring', 'text', (c) => c.notNull())
        .addColumn('allow_reschedule', 'integer', (c) => c.notNull())
        .addColumn('buffer_before_minutes', 'integer', (c) => c.notNull())
        .addColumn('buffer_after_minutes', 'integer', (c) => c.notNull())
        .addColumn('slot_interval_minutes', 'integer', (c) => c.notNull())
        .addColumn('questions_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('event_types_owner_slug', ['owner_user_id', 'slug'])
        .execute();

      await db.schema
        .createTable('tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes_json', 'text', (c) => c.notNull())
        .addColumn('oauth_client_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();

      await db.schema
        .createTable('bookings')
        .addColumn('uid', 'text', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id'))
        .addColumn('host_user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('start_at', 'text', (c) => c.notNull())
        .addColumn('end_at', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('attendee_email', 'text', (c) => c.notNull())
        .addColumn('attendees_json', 'text', (c) => c.notNull())
        .addColumn('guests_json', 'text', (c) => c.notNull())
        .addColumn('location_json', 'text', (c) => c.notNull())
        .addColumn('metadata_json', 'text', (c) => c.notNull())
        .addColumn('responses_json', 'text')
        .addColumn('calendar_sync_status', 'text', (c) => c.notNull())
        .addColumn('calendar_event_id', 'text', (c) => c.notNull())
        .addColumn('rescheduled_from_uid', 'text')
        .addColumn('cancelled_at', 'text')
        .addColumn('cancellation_reason', 'text')
        .addColumn('no_show_at', 'text')
        .addColumn('no_show_reason', 'text')
        .addColumn('series_uid', 'text')
        .addColumn('pattern_instant', 'text')
        .addColumn('moved_by_invitee', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('import_hash', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // Keyset pages and the availability scan read bookings in these orders.
      await db.schema.createIndex('bookings_host_start').on('bookings').columns(['host_user_id', 'start_at', 'uid']).execute();
      await db.schema.createIndex('bookings_start').on('bookings').columns(['start_at', 'uid']).execute();
      await db.schema.createIndex('bookings_updated').on('bookings').columns(['updated_at', 'uid']).execute();
      await db.schema.createIndex('bookings_created').on('bookings').columns(['created_at', 'uid']).execute();
      await db.schema.createIndex('bookings_series').on('bookings').columns(['series_uid', 'start_at']).execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('lease', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text', (c) => c.notNull())
        .addColumn('response_json', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('subject_uid', 'text', (c) => c.notNull())
        .addColumn('payload_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('dispatched_at', 'text')
        .execute();
      await db.schema.createIndex('outbox_pending').on('outbox').columns(['dispatched_at', 'created_at']).execute();
    },
  },
  '0002_availability_index': {
    async up(db: Kysely<any>) {
      // Availability reads a host's confirmed bookings by start: with every
      // column that read needs in the index, it never visits the table rows.
      // It also serves a host's bookings in start order, so the narrower
      // index it replaces is one less tree to write on every booking.
      await db.schema
        .createIndex('bookings_host_start_covering')
        .on('bookings')
        .columns(['host_user_id', 'start_at', 'end_at', 'status', 'uid'])
        .execute();
      await db.schema.dropIndex('bookings_host_start').execute();
    },
  },
  '0003_series': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('series')
        .addColumn('uid', 'text', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('epoch', 'integer', (c) => c.notNull())
        .addColumn('event_type_id', 'text', (c) => c.notNull().references('event_types.id'))
        .addColumn('host_user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('attendee_json', 'text', (c) => c.notNull())
        .addColumn('frequency', 'text', (c) => c.notNull())
        .addColumn('interval_weeks', 'integer', (c) => c.notNull())
        .addColumn('weekdays_json', 'text', (c) => c.notNull())
        .addColumn('time', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('starts_on', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('location_url', 'text')
        .addColumn('notify_invitee', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('ending', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('hold_token', 'text')
        .addColumn('hold_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('ended_at', 'text')
        .execute();
      // Lists page newest first, optionally for one host.
      await db.schema.createIndex('series_created').on('series').columns(['created_at', 'uid']).execute();
      await db.schema.createIndex('series_host_created').on('series').columns(['host_user_id', 'created_at', 'uid']).execute();

      await db.schema
        .createTable('series_owed')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('series_uid', 'text', (c) => c.notNull().references('series.uid'))
        .addColumn('pattern_instant', 'text', (c) => c.notNull())
        .addColumn('held_booking_uid', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('series_owed_series').on('series_owed').columns(['series_uid', 'pattern_instant']).execute();

      await db.schema.alterTable('bookings').addColumn('canceled_by', 'text').execute();

      await db.schema
        .createTable('notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('series_uid', 'text')
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('payload_json', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('notifications_due').on('notifications').columns(['status', 'next_attempt_at']).execute();
    },
  },
  '0002_oauth': {
    async up(db: Kysely<any>) {
      // A host signs in to authorize apps with a password they set with the CLI (docs/oauth.md).
      await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();

      // The authorization server's state: clients, grants, codes, tokens,
      // sessions and sign-in interactions, one row each, the model's payload
      // as JSON. Secrets (tokens, codes, sessions) are keyed by their digest.
      await db.schema
        .createTable('oauth_records')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload_json', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('account_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('consumed_at', 'text')
        .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
        .execute();
      await db.schema.createIndex('oauth_records_grant').on('oauth_records').columns(['grant_id']).execute();
      await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['model', 'uid']).execute();
      await db.schema.createIndex('oauth_records_account').on('oauth_records').columns(['model', 'account_id']).execute();
      await db.schema.createIndex('oauth_records_expiry').on('oauth_records').columns(['expires_at']).execute();

      // Keys every server process on one database must share: cookie signing and the token signing key.
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0003_webhooks_and_mail': {
    async up(db: Kysely<any>) {
      // Subscriptions of an account to events (docs/webhooks.md). The secret signs deliveries
      // (Standard Webhooks HMAC), so it is kept as it is; during a rotation the previous one
      // signs too until previous_secret_until.
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events_json', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'text')
        // active | paused | disabled
        .addColumn('status', 'text', (c) => c.notNull())
        // owner | failures | gone (410), when not active
        .addColumn('paused_reason', 'text')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failing_since', 'text')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_owner').on('webhooks').columns(['owner_user_id', 'created_at']).execute();

      // One row per event per webhook: the unit that is sent, retried, and listed. Its id is
      // the webhook-id header, the same on every attempt. A process claims a row by setting
      // lease and locked_until; one that dies mid-delivery lets the lease run out.
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload_json', 'text', (c) => c.notNull())
        // pending | succeeded | failed (no attempt left, or the webhook stopped)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_response_body', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('delivered_at', 'text')
        .addUniqueConstraint('webhook_deliveries_event', ['webhook_id', 'event_id'])
        .execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_listed').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();

      // The outbox is fanned out to webhooks once: a process claims events the same way.
      await db.schema.alterTable('outbox').addColumn('lease', 'text').execute();
      await db.schema.alterTable('outbox').addColumn('locked_until', 'text').execute();
      await db.schema.createIndex('outbox_undispatched').on('outbox').columns(['dispatched_at', 'created_at']).execute();

      // Attendee mail can be turned off for the whole workspace or one event type (docs/workspace.md).
      await db.schema
        .alterTable('organization')
        .addColumn('attendee_mail', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('event_types')
        .addColumn('attendee_mail', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      // Booking mail is about a booking, not a series.
      await db.schema.alterTable('notifications').addColumn('booking_uid', 'text').execute();
    },
  },
  '0004_calendar_sync': {
    async up(db: Kysely<any>) {
      // A booking's event in its host's CalDAV calendar (docs/calendars.md "Bookings written
      // back"). The row is queued (pending, due now) in the transaction that changes the booking,
      // and written after commit by whichever process claims it, as webhook deliveries are.
      // `generation` grows with every queueing, so an outcome for an older state of the booking
      // records where the event is but does not mark the newer state synced.
      await db.schema
        .createTable('calendar_syncs')
        .addColumn('booking_uid', 'text', (c) => c.primaryKey().references('bookings.uid'))
        .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(1))
        // pending | synced | failed
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('lease', 'text')
        .addColumn('locked_until', 'text')
        // Where the event is now: its URL and ETag, and the account it is in (the user whose
        // calendars list it, and its server URL and username), so that a booking moved to
        // another host can still be removed from the first one's calendar.
        .addColumn('href', 'text')
        .addColumn('etag', 'text')
        .addColumn('account_user_id', 'text')
        .addColumn('account_url', 'text')
        .addColumn('account_username', 'text')
        .addColumn('last_error', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('calendar_syncs_due').on('calendar_syncs').columns(['status', 'next_attempt_at']).execute();
    },
  },
  '0005_outbox_pending_only': {
    async up(db: Kysely<any>) {
      // The outbox was indexed twice on (dispatched_at, created_at), and both
      // indexes held every event ever recorded, though only the undispatched
      // are looked up (fan-out, the backlog count). One partial index of those
      // stays as small as the backlog, and each create maintains one index
      // instead of two (README "Benchmarks").
      await db.schema.dropIndex('outbox_undispatched').execute();
      await db.schema.dropIndex('outbox_pending').execute();
      await db.schema
        .createIndex('outbox_pending')
        .on('outbox')
        .columns(['created_at', 'id'])
        .where(sql.ref('dispatched_at'), 'is', null)
        .execute();
    },
  },
  '0006_mail_pending_only': {
    async up(db: Kysely<any>) {
      // As the outbox's in 0005: the due index held every mail ever sent,
      // though only pending mail is looked up (the dispatcher's claim, the
      // backlog count). One partial index of pending mail, in the claim's
      // order, stays as small as the queue, and the claim reads it in order
      // with no sort (README "Benchmarks").
      await db.schema.dropIndex('notifications_due').execute();
      await db.schema
        .createIndex('notifications_pending')
        .on('notifications')
        .columns(['next_attempt_at', 'created_at'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
    },
  },
  '0007_webhook_receiver_standing': {
    async up(db: Kysely<any>) {
      // What delivery knows of a webhook's receiver, shared by every process
      // (docs/webhooks.md "Slow receivers"): whether its last answer came
      // promptly, which earns it more than one request in flight, and until
      // when it is backed off after a request timed out. Webhooks that were
      // delivering without failures keep the four requests they had.
      await db.schema
        .alterTable('webhooks')
        .addColumn('answers_promptly', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('webhooks').addColumn('backoff_until', 'text').execute();
      await db.updateTable('webhooks').set({ answers_promptly: 1 }).where('consecutive_failures', '=', 0).execute();
    },
  },
  '0008_event_type_self_service': {
    async up(db: Kysely<any>) {
      // Event types changed through the API (docs/api/event-types.md): a version for
      // If-Match, a description, where bookings of it meet, and archiving. Rows made
      // before are at version 1 and meet at generated conference links, as they did.
      await db.schema
        .alterTable('event_types')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('event_types').addColumn('description', 'text').execute();
      await db.schema
        .alterTable('event_types')
        .addColumn('location_json', 'text', (c) => c.notNull().defaultTo('{"type":"conference"}'))
        .execute();
      // An archived type frees its slug for a new one, yet the unique constraint on
      // (owner_user_id, slug) is part of 0001's table and SQLite cannot drop it without
      // rebuilding the table: the slug column then holds `~<id>`, which no valid slug
      // can be, and the slug it had is kept here.
      await db.schema.alterTable('event_types').addColumn('archived_at', 'text').execute();
      await db.schema.alterTable('event_types').addColumn('archived_slug', 'text').execute();
    },
  },
  '0009_schedule_version': {
    async up(db: Kysely<any>) {
      // A host's working hours are a resource of their own (docs/api/availability.md):
      // read and replaced with If-Match against this version, which nothing
      // else on the user's row moves. 0 is a schedule never written since;
      // `schedule_updated_at` is when it last was (null: not since).
      await db.schema
        .alterTable('users')
        .addColumn('schedule_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('users').addColumn('schedule_updated_at', 'text').execute();
    },
  },
  ...selfServiceMigrations,
};
