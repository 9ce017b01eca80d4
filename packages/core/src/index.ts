// The public surface of @schedule/core. Everything exported here is API.

export { type Authenticator, type AuthenticatorOptions, authenticate, createAuthenticator } from './auth/authenticate.js';
export type { Account, Principal } from './auth/principal.js';
export { type ActsFor, mayActFor, ROLES, type Role } from './auth/roles.js';
export { SCOPES, type Scope } from './auth/scopes.js';
export { hashSecret, newSecret } from './auth/token-secret.js';
export { icsFeedReader } from './availability/adapters/ics-feed.js';
export type { Interval } from './availability/busy.js';
export { type CalendarReader, CalendarUnreadable, createCalendarReader, type IcsFeedReader } from './availability/calendar-reader.js';
export { cancelBookingBodySchema, createBookingBodySchema, rescheduleBookingBodySchema } from './bookings/booking-input.js';
export { type Booking, bookingSchema } from './bookings/booking-view.js';
export { BOOKING_SORTS, listBookingsQuerySchema } from './bookings/list-bookings.js';
export { updateBookingBodySchema } from './bookings/update-booking.js';
export { canonicalJson, fingerprintOf } from './canonical-json.js';
export { type Clock, type ManualClock, manualClock, systemClock } from './clock.js';
export { etagOf, type IfMatch, matchesVersion, parseIfMatch } from './conditional.js';
export { type ConferenceLinks, conferenceLinksAt } from './conference-links.js';
export { ERROR_CODES, type ErrorCode, type ErrorDetails, isScheduleError, ScheduleError } from './errors.js';
export { KEY_LIFETIME_MS, MAX_KEY_LENGTH, purgeExpiredKeys } from './idempotency/idempotency.js';
export { type IdGenerator, isUuid, randomIds, sequentialIds, stableUuid } from './ids.js';
export { type ExecuteDeps, type Executed, execute } from './operations/execute.js';
export {
  type CoreDeps,
  defineOperation,
  type ListOutcome,
  type Operation,
  type OperationContext,
  type Outcome,
  type RawCall,
  type Requirement,
} from './operations/operation.js';
export { operations } from './operations/registry.js';
export { loadLimits } from './organization.js';
export type { EventName } from './outbox/record-event.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from './pagination/cursor.js';
export { redisRateLimitStore } from './rate-limit/adapters/redis-store.js';
export { memoryRateLimitStore } from './rate-limit/memory-store.js';
export type { RateLimitStore } from './rate-limit/rate-limit-store.js';
export {
  type Bucket,
  bucketFor,
  createRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
  WINDOW_SECONDS,
} from './rate-limit/rate-limiter.js';
export { checkSlotQuerySchema, listSlotsQuerySchema } from './slots/slot-queries.js';
export { migrateToLatest } from './storage/migrations.js';
export { openStore } from './storage/open-store.js';
export { createPostgresSchema, dropPostgresSchema, openPostgres } from './storage/postgres/open-postgres.js';
export type { Database } from './storage/schema.js';
export { openSqlite } from './storage/sqlite/open-sqlite.js';
export type { Dialect, Executor, Store } from './storage/store.js';
export { parseInstant, toTimestamp } from './time.js';
export { type CivilDate, wallClockToInstant } from './wall-clock.js';
export { type LoadReport, loadWorkspace } from './workspace/load-workspace.js';
export { jsonPath, parseWorkspace, WorkspaceError } from './workspace/parse-workspace.js';
export { DEFAULT_LIMITS, type Limits, type Workspace, workspaceSchema } from './workspace/workspace-schema.js';
