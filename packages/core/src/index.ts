// The public surface of @schedule/core. Everything exported here is API.

export {
  type Authenticator,
  type AuthenticatorOptions,
  authenticate,
  createAuthenticator,
  createTokenCache,
  forResource,
  type TokenCache,
} from './auth/authenticate.js';
export { bearerSecret } from './auth/bearer.js';
export { findUser, type UserName } from './auth/find-user.js';
export {
  createToken,
  listTokens,
  revokeToken,
  type TokenSummary,
  tokenSummarySchema,
} from './auth/manage-tokens.js';
export type { Account, Principal, VisitorGrant } from './auth/principal.js';
export { type ActsFor, mayActFor, ROLES, type Role } from './auth/roles.js';
export { SCOPES, type Scope } from './auth/scopes.js';
export { hashSecret, newSecret } from './auth/token-secret.js';
export { visitorPrincipal } from './auth/visitor.js';
export type { CalDavBusyOptions } from './availability/adapters/caldav-busy.js';
export { calDavBusyReader } from './availability/adapters/caldav-busy-lazy.js';
export type { IcsFeedOptions, SkippedEvent, SkipReason } from './availability/adapters/ics-feed.js';
export { icsFeedReader } from './availability/adapters/ics-feed-lazy.js';
export type { Interval } from './availability/busy.js';
export {
  type CalDavBusyReader,
  type CalendarReader,
  CalendarUnreadable,
  createCalendarReader,
  feedUrlShown,
  type IcsFeedReader,
} from './availability/calendar-reader.js';
export { addOverrideBodySchema, replaceWorkingHoursBodySchema } from './availability/working-hours-input.js';
export { type WorkingHours, workingHoursSchema } from './availability/working-hours-view.js';
export { cancelBookingBodySchema, createBookingBodySchema, rescheduleBookingBodySchema } from './bookings/booking-input.js';
export { type Booking, bookingSchema } from './bookings/booking-view.js';
export { BOOKING_SORTS, listBookingsQuerySchema } from './bookings/list-bookings.js';
export { updateBookingBodySchema } from './bookings/update-booking.js';
export type { CalDavAccount, CalDavConnector, CalDavDeps, CalendarObjectText, RemoteCalendar } from './caldav/caldav-connector.js';
export { CalDavFailure, type CalDavFailureReason } from './caldav/caldav-failure.js';
export { calDavConnector } from './caldav/caldav-lazy.js';
export { type CalDavPasswordSources, calDavPasswords } from './caldav/caldav-passwords.js';
export type { CalendarAccountDeps } from './calendar-accounts/calendar-account-deps.js';
export { addCalendarAccountBodySchema } from './calendar-accounts/calendar-account-input.js';
export { type CalendarAccount, type CalendarAccountTest, calendarAccountSchema } from './calendar-accounts/calendar-account-view.js';
export {
  CalendarKeyError,
  type PasswordSealer,
  parseCalendarKey,
  passwordSealer,
  SealedPasswordError,
} from './calendar-accounts/password-seal.js';
export {
  CALENDAR_SYNC_LEASE_MS,
  type CalendarSyncDeps,
  type CalendarSyncer,
  type CalendarSyncLoop,
  createCalendarSyncer,
  startCalendarSync,
} from './calendar-sync/calendar-syncer.js';
export type { SyncOutcome } from './calendar-sync/record-sync-outcome.js';
export { type CalendarResync, calendarResyncSchema } from './calendar-sync/resync-input.js';
export { CALENDAR_RETRY_DELAYS_MS } from './calendar-sync/retry-schedule.js';
export { type CallInput, type CallWords, CORE_WORDS, type Worded } from './call-words.js';
export { canonicalJson, fingerprintOf } from './canonical-json.js';
export { type Clock, type ManualClock, manualClock, systemClock } from './clock.js';
export { etagOf, type IfMatch, matchesVersion, parseIfMatch } from './conditional.js';
export { type ConferenceLinks, conferenceLinksAt } from './conference-links.js';
export { type DirectoryQuery, describeCaller, directoryQuerySchema, listEventTypes, listPeople } from './directory/directory.js';
export {
  type Caller,
  callerSchema,
  type EventTypeSummary,
  eventTypeSummarySchema,
  type Person,
  personSchema,
} from './directory/directory-view.js';
export {
  ERROR_CODES,
  type ErrorCode,
  type ErrorDetails,
  isErrorCode,
  isScheduleError,
  ScheduleError,
  type ShownError,
} from './errors.js';
export { bookingPagePath, bookingUrlOf, type PagesAddress } from './event-types/booking-url.js';
export type { CalDavCalendar } from './event-types/calendar.js';
export { type EventTypeLocation, eventTypeLocationSchema } from './event-types/event-type-fields.js';
export {
  type CreateEventTypeBody,
  createEventTypeBodySchema,
  type UpdateEventTypeBody,
  updateEventTypeBodySchema,
} from './event-types/event-type-input.js';
export { type EventType, eventTypeSchema } from './event-types/event-type-view.js';
export { bookingHost, type PublicEventType, type PublicHost, publicEventType, publicHostPage } from './event-types/public-event-types.js';
export { answerProblem, QUESTION_TYPES, type Question, type QuestionType, questionSchema } from './event-types/questions.js';
export { MAX_INTERVALS_A_DAY, MAX_OVERRIDES, mergeDay, type Schedule, scheduleSchema, WEEKDAYS } from './event-types/schedule.js';
export { type Readiness, type ReadinessDeps, type ReadinessOptions, readinessCheck } from './health/readiness.js';
export { type Hold, holdSchema } from './holds/hold-view.js';
export { KEY_LIFETIME_MS, MAX_KEY_LENGTH, purgeExpiredKeys } from './idempotency/idempotency.js';
export { type IdGenerator, isUuid, randomIds, sequentialIds, stableUuid } from './ids.js';
export {
  type ManageLinkReading,
  type ManageLinkWriter,
  manageLinkKey,
  manageLinkPath,
  manageLinkWriter,
  readManageLink,
  signManageLink,
} from './manage-links/manage-link.js';
export { DEFAULT_SMTP_TIMEOUTS, type SmtpTimeouts, smtpMailer } from './notifications/adapters/smtp-mailer.js';
export { MailSettingsError, type SmtpSettings, smtpSettings } from './notifications/adapters/smtp-settings.js';
export { composeMail, type StoredNotification } from './notifications/compose-mail.js';
export { DEFAULT_MAIL_CONCURRENCY, type DispatchLoop, startDispatchLoop } from './notifications/dispatch-loop.js';
export {
  type DispatchDeps,
  type DispatchPass,
  type DispatchReport,
  dispatchNotifications,
  dispatchPass,
  MAX_SEND_ATTEMPTS,
} from './notifications/dispatch-notifications.js';
export { inviteCalendar, inviteUid, storedEventCalendar } from './notifications/invite-ics.js';
export { loggingMailer, type Mail, type MailCalendar, type Mailer, type SentMail } from './notifications/mailer.js';
export {
  type ClientRegistration,
  type ClientSummary,
  clientMetadata,
  clientRegistrationSchema,
  createOAuthClient,
  type GrantSummary,
  listGrants,
  listOAuthClients,
  revokeGrant,
  revokeOAuthClient,
} from './oauth/oauth-clients.js';
export {
  consumeRecord,
  destroyRecord,
  findRecord,
  findRecordByUid,
  purgeExpiredRecords,
  type RecordDeps,
  type RecordPayload,
  revokeGrantRecords,
  upsertRecord,
} from './oauth/oauth-records.js';
export {
  assertPasswordLength,
  checkPassword,
  clearPassword,
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  setPassword,
  verifyPassword,
} from './oauth/passwords.js';
export { sharedSecret } from './oauth/server-secrets.js';
export { type ExecuteDeps, type Executed, execute } from './operations/execute.js';
export {
  type CoreDeps,
  defineOperation,
  type ItemOutcome,
  type ListOutcome,
  type Operation,
  type OperationContext,
  type OperationSchemas,
  type Outcome,
  type RawCall,
  type Requirement,
} from './operations/operation.js';
export { CALL_ERRORS, errorsOf } from './operations/operation-errors.js';
export { type OperationName, operations, operationsByName } from './operations/registry.js';
export type { TokenWithSecret } from './operations/token-operations.js';
export { MissingDriver } from './optional-driver.js';
export { BACKLOG_COUNT_CAP, type Backlog, countBacklog } from './outbox/count-backlog.js';
export { EVENT_NAMES, type EventName } from './outbox/record-event.js';
export type {
  BookingNotificationPayload,
  NotificationKind,
  NotificationPayloads,
  SeriesNotificationPayload,
  WebhookPausedPayload,
} from './outbox/record-notification.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from './pagination/cursor.js';
export { type PersonDetail, personDetailSchema } from './people/person-view.js';
export { redisRateLimitStore } from './rate-limit/adapters/redis-store.js';
export { type Admission, type AdmissionDeps, admit, type CallerSource } from './rate-limit/admit.js';
export { DEFAULT_LIMITS, type Limits } from './rate-limit/limits.js';
export { loadLimits } from './rate-limit/load-limits.js';
export { memoryRateLimitStore } from './rate-limit/memory-store.js';
export type { RateLimitStore } from './rate-limit/rate-limit-store.js';
export {
  type Bucket,
  bucketFor,
  createRateLimiter,
  type FailOpenCause,
  type RateLimitDecision,
  type RateLimiter,
  rateLimitedError,
  WINDOW_SECONDS,
} from './rate-limit/rate-limiter.js';
export { expandPattern, patternInstants } from './series/expand-pattern.js';
export { listSeriesQuerySchema } from './series/list-series.js';
export type { Pattern, PatternInstant, PatternWeekday } from './series/pattern.js';
export { HOLD_LEASE_MS } from './series/series-hold.js';
export {
  changeHostBodySchema,
  createSeriesBodySchema,
  MAX_COUNT,
  MIN_COUNT,
  updateSeriesBodySchema,
} from './series/series-input.js';
export type { SeriesStep, StepHook } from './series/series-steps.js';
export {
  createSeriesResultSchema,
  endResultSchema,
  HOST_STOPS,
  hostChangeResultSchema,
  occurrenceSchema,
  pauseResultSchema,
  resumeResultSchema,
  SERIES_SOURCES,
  SERIES_STATUSES,
  type Series,
  type SeriesPreview,
  type SeriesSource,
  type SeriesStatus,
  SKIP_CAUSES,
  type SkipCause,
  seriesPreviewSchema,
  seriesSchema,
  skippedSchema,
  updateSeriesResultSchema,
} from './series/series-view.js';
export { checkSlotQuerySchema, listSlotsQuerySchema } from './slots/slot-queries.js';
export { type SlotCheck, type SlotList, slotCheckSchema, slotListSchema } from './slots/slot-view.js';
export { migrateToLatest } from './storage/migrate.js';
export { DatabaseUrlError, defaultPoolSize, openStore, type StoreOptions } from './storage/open-store.js';
export type { PostgresTimeouts } from './storage/postgres/open-postgres.js';
export { createPostgresSchema, dropPostgresSchema } from './storage/postgres/postgres-admin.js';
export type { Database } from './storage/schema.js';
export { openSqlite } from './storage/sqlite/open-sqlite.js';
export type { Dialect, Executor, Store } from './storage/store.js';
export { FIRST_DATE, LAST_DATE, parseInstant, toTimestamp } from './time.js';
export { createTimeOffBodySchema, updateTimeOffBodySchema } from './time-off/time-off-input.js';
export { type TimeOff, timeOffSchema } from './time-off/time-off-view.js';
export { bookingWarnings } from './times/book-time.js';
export { hostZone, hostZones } from './times/host-zone.js';
export { localTime } from './times/local-time.js';
export { bookTimeBodySchema, findTimesBodySchema, MAX_OPTIONS, PARTS_OF_DAY } from './times/times-input.js';
export { type BookedTime, bookedTimeSchema, type TimeOptions, timeOptionsSchema } from './times/times-view.js';
export { urlShown } from './url-shown.js';
export { closestName, didYouMean } from './validation/closest-name.js';
export { inPlainWords } from './validation/issue-words.js';
export { MAX_JSON_DEPTH } from './validation/raw-call-bounds.js';
export {
  closeDeclaredObjects,
  type JsonSchema,
  refuseUnknownFields,
  type UnknownField,
  unknownFieldsOf,
} from './validation/unknown-fields.js';
export { type CivilDate, wallClockToInstant } from './wall-clock.js';
export {
  DEFAULT_DELIVERY_SETTINGS,
  type DeliveryLogger,
  type DeliveryOutcome,
  type DeliveryStep,
  type WebhookDeliveryDeps,
  type WebhookDeliverySettings,
} from './webhooks/delivery/delivery-deps.js';
export { startWebhookDelivery, type WebhookDeliveryLoop } from './webhooks/delivery/delivery-loop.js';
export {
  type WebhookAnswer,
  type WebhookHttpClient,
  type WebhookHttpOptions,
  type WebhookRequest,
  WebhookRequestFailed,
  webhookHttpClient,
} from './webhooks/delivery/http-client.js';
export { MAX_ATTEMPTS as WEBHOOK_MAX_ATTEMPTS, RETRY_DELAYS_MS as WEBHOOK_RETRY_DELAYS_MS } from './webhooks/delivery/retry-schedule.js';
export { createWebhookDeliverer, type StepReport, type WebhookDeliverer } from './webhooks/delivery/webhook-deliverer.js';
export { isPrivateAddress } from './webhooks/private-address.js';
export { SECRET_OVERLAP_MS } from './webhooks/rotate-webhook-secret.js';
export { createWebhookBodySchema, updateWebhookBodySchema } from './webhooks/webhook-input.js';
export {
  DELIVERY_STATUSES,
  type Delivery,
  deliverySchema,
  PAUSED_REASONS,
  WEBHOOK_STATUSES,
  type Webhook,
  type WebhookWithSecret,
  webhookSchema,
  webhookWithSecretSchema,
} from './webhooks/webhook-view.js';
export { type Settled, within } from './within.js';
export { type ApplyOptions, applyWorkspace } from './workspace/apply-plan.js';
export { exportWorkspace } from './workspace/export-workspace.js';
export { type LoadReport, loadWorkspace } from './workspace/load-workspace.js';
export { jsonPath, parseDeclaredWorkspace, parseWorkspace, WorkspaceError } from './workspace/parse-workspace.js';
export {
  type FieldChange,
  type PlanItem,
  type PlanOptions,
  type PlanSummary,
  planWorkspace,
  type WorkspacePlan,
} from './workspace/plan-workspace.js';
export type { KindName, PruneAction } from './workspace/resource-kind.js';
export { type Workspace, workspaceSchema } from './workspace/workspace-schema.js';
export { type DeclaredWorkspace, declaringAll, SECTIONS, type Section } from './workspace/workspace-sections.js';
