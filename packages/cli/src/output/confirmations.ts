import { dayHeading, rangeText } from './zone-time.js';

// What each write says on a terminal, in one line: what happened, to what,
// when (in the viewer's zone), and the uid to use next. Scripts never see
// these: piped output and --json stay the API's data.

interface BookingFacts {
  readonly uid: string;
  readonly title: string;
  readonly start_at: string;
  readonly end_at: string;
  readonly version: number;
}

interface SeriesFacts {
  readonly uid: string;
  readonly version: number;
  readonly event_type: { readonly name: string };
  readonly attendee: { readonly name: string; readonly email: string };
  readonly frequency: string;
  readonly interval_weeks: number;
  readonly weekdays: readonly string[];
  readonly time: string;
  readonly timezone: string;
}

interface Skipped {
  readonly date: string;
}

interface Resumed {
  readonly created: number;
  readonly skipped: readonly Skipped[];
  readonly owed: number;
  readonly superseded: boolean;
}

const SHOWN_SKIPS = 3;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `, 1 skipped (Thu 10 Dec 2026)`: the dates the host was not free, the first few by name. */
function skippedText(skipped: readonly Skipped[]): string {
  if (skipped.length === 0) return '';
  const named = skipped.slice(0, SHOWN_SKIPS).map((s) => dayHeading(s.date));
  const more = skipped.length > SHOWN_SKIPS ? ` and ${skipped.length - SHOWN_SKIPS} more` : '';
  return `, ${skipped.length} skipped (${named.join(', ')}${more})`;
}

/** docs/api/series.md "Busy and superseded": the counts are what finished; repeating the call converges. */
function supersededText(superseded: boolean): string {
  return superseded ? ' · another change took over; run it again to finish' : '';
}

function patternText(s: SeriesFacts): string {
  if (s.frequency !== 'weekly') return `monthly at ${s.time}`;
  const every = s.interval_weeks === 1 ? 'weekly' : `every ${s.interval_weeks} weeks`;
  return `${every} on ${s.weekdays.join(',')} at ${s.time}`;
}

export function bookedText(b: BookingFacts, zone: string): string {
  return `Booked ${b.title} on ${rangeText(b.start_at, b.end_at, zone)} · uid ${b.uid}`;
}

export function rescheduledText(b: BookingFacts, zone: string): string {
  return `Moved ${b.title} to ${rangeText(b.start_at, b.end_at, zone)} · uid ${b.uid}`;
}

export function canceledText(b: BookingFacts, zone: string): string {
  return `Canceled ${b.title} on ${rangeText(b.start_at, b.end_at, zone)} · uid ${b.uid}`;
}

export function noShowText(b: BookingFacts & { readonly no_show_at: string | null }, zone: string): string {
  const what = b.no_show_at === null ? 'Cleared the no-show of' : 'Recorded a no-show for';
  return `${what} ${b.title} on ${rangeText(b.start_at, b.end_at, zone)} · uid ${b.uid}`;
}

export function confirmedText(b: BookingFacts, zone: string): string {
  return `Confirmed ${b.title} on ${rangeText(b.start_at, b.end_at, zone)} · uid ${b.uid}`;
}

/** The title names the new host already ("… between Ben and Kim"). */
export function reassignedText(b: BookingFacts, zone: string): string {
  return `Reassigned ${b.title} on ${rangeText(b.start_at, b.end_at, zone)} · uid ${b.uid}`;
}

export function declinedText(b: BookingFacts, zone: string): string {
  return `Declined ${b.title} on ${rangeText(b.start_at, b.end_at, zone)} · uid ${b.uid}`;
}

export function updatedBookingText(b: BookingFacts, zone: string): string {
  return `Updated ${b.title} on ${rangeText(b.start_at, b.end_at, zone)} (version ${b.version}) · uid ${b.uid}`;
}

export function seriesCreatedText(data: { series: SeriesFacts; occurrences: readonly unknown[]; skipped: readonly Skipped[] }): string {
  const s = data.series;
  const who = s.attendee.name || s.attendee.email;
  return (
    `Created a series of ${s.event_type.name} with ${who}, ${patternText(s)} (${s.timezone}): ` +
    `${data.occurrences.length} booked${skippedText(data.skipped)} · uid ${s.uid}`
  );
}

export function seriesPausedText(uid: string, r: { held: number; superseded: boolean }): string {
  return `Paused series ${uid}: ${plural(r.held, 'meeting')} held until it resumes${supersededText(r.superseded)}`;
}

function resumedCounts(r: Resumed): string {
  const owed = r.owed > 0 ? `, ${r.owed} still owed (resume again later)` : '';
  return `${r.created} booked${skippedText(r.skipped)}${owed}${supersededText(r.superseded)}`;
}

export function seriesResumedText(uid: string, r: Resumed): string {
  return `Resumed series ${uid}: ${resumedCounts(r)}`;
}

export function seriesEndedText(uid: string, r: { canceled: number; superseded: boolean }): string {
  return `Ended series ${uid}: ${plural(r.canceled, 'future meeting')} canceled${supersededText(r.superseded)}`;
}

export function seriesMovedText(
  uid: string,
  host: string,
  r: { moved: number; unchanged: number; stopped_by: string | null; superseded: boolean },
): string {
  const stopped = r.stopped_by === null ? '' : `; stopped early (${r.stopped_by}), run it again once that is fixed`;
  return `Moved series ${uid} to ${host}: ${r.moved} moved, ${r.unchanged} unchanged${stopped}`;
}

export function seriesUpdatedText(data: { series: SeriesFacts; resumed: Resumed | null }): string {
  const rebooked = data.resumed === null ? '' : `: ${resumedCounts(data.resumed)}`;
  return `Updated series ${data.series.uid}, now ${patternText(data.series)} (${data.series.timezone}), version ${data.series.version}${rebooked}`;
}

export function tokenCreatedText(token: { name: string; user: { username: string }; scopes: readonly string[] }, secret: string): string {
  return `Created token ${token.name} for ${token.user.username} (${token.scopes.join(', ')}) · secret ${secret}`;
}

export function tokenRevokedText(token: { id: string; name: string; user: { username: string } }): string {
  return `Revoked token ${token.name} of ${token.user.username} · id ${token.id}`;
}

export function passwordSetText(username: string): string {
  return `Set the sign-in password of ${username}`;
}

export function passwordClearedText(username: string): string {
  return `Cleared the password of ${username}: they can no longer sign in, and their open sign-ins ended`;
}

export function oauthClientCreatedText(
  client: { client_id: string; client_name: string | null; kind: string },
  secret: string | null,
): string {
  const shown = secret === null ? '' : ` · client_secret ${secret}`;
  return `Registered ${client.kind} app ${client.client_name} · client_id ${client.client_id}${shown}`;
}

export function oauthClientRevokedText(r: {
  client_id: string;
  username: string | null;
  grants_revoked: number;
  client_removed: boolean;
}): string {
  const ended = plural(r.grants_revoked, 'grant');
  if (r.username !== null) return `Revoked ${r.client_id} for ${r.username}: ${ended} ended`;
  return `Revoked ${r.client_id} for everyone: ${ended} ended${r.client_removed ? ', and the client removed' : ''}`;
}

interface WebhookFacts {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly status: string;
  readonly paused_reason: string | null;
  readonly version: number;
}

export function webhookCreatedText(w: WebhookFacts & { secret: string }): string {
  return `Created webhook to ${w.url} for ${w.events.join(', ')} · id ${w.id} · secret ${w.secret} (shown only now)`;
}

export function webhookUpdatedText(w: WebhookFacts): string {
  const state = w.paused_reason === null ? w.status : `${w.status} (${w.paused_reason})`;
  return `Updated webhook to ${w.url}, ${state}, version ${w.version} · id ${w.id}`;
}

export function webhookDeletedText(w: WebhookFacts): string {
  return `Deleted webhook to ${w.url} and its deliveries · id ${w.id}`;
}

export function webhookRotatedText(w: WebhookFacts & { secret: string }): string {
  return `New secret for webhook ${w.id}: ${w.secret} (shown only now); the previous one also signs for 24 hours`;
}

export function deliveryQueuedText(d: { id: string; webhook_id: string; event_type: string }): string {
  return `Queued ${d.event_type} to webhook ${d.webhook_id} · delivery ${d.id} (see schedule webhooks deliveries ${d.webhook_id})`;
}

interface CalendarAccountFacts {
  id: string;
  url: string;
  username: string;
}

export function calendarAddedText(c: CalendarAccountFacts): string {
  return `Added CalDAV account ${c.username} at ${c.url} · id ${c.id} (its password is stored sealed, never shown)`;
}

export function calendarRemovedText(c: CalendarAccountFacts): string {
  return `Removed CalDAV account ${c.username} at ${c.url} · id ${c.id}`;
}

export function calendarResyncText(r: { queued: number; remaining: number }): string {
  const left = r.remaining > 0 ? `; ${r.remaining} more failed: run it again` : '';
  return `Queued ${r.queued} booking(s) to be written to the calendar again (calendar_sync_status pending until written)${left}`;
}

interface TimeOffFacts {
  readonly id: string;
  readonly start_at: string;
  readonly end_at: string;
  readonly reason: string | null;
  readonly version: number;
}

const timeOffText = (t: TimeOffFacts, zone: string) =>
  `${rangeText(t.start_at, t.end_at, zone)}${t.reason === null ? '' : ` (${t.reason})`}`;

export function timeOffAddedText(t: TimeOffFacts, zone: string): string {
  return `Added time off ${timeOffText(t, zone)} · id ${t.id}`;
}

export function timeOffUpdatedText(t: TimeOffFacts, zone: string): string {
  return `Changed time off to ${timeOffText(t, zone)}, version ${t.version} · id ${t.id}`;
}

export function timeOffRemovedText(t: TimeOffFacts, zone: string): string {
  return `Removed time off ${timeOffText(t, zone)} · id ${t.id}`;
}

/** What a people command confirms: who, their role, and their version for the next --if-match. */
interface PersonFacts {
  readonly username: string;
  readonly role: string;
  readonly version: number;
  readonly user_id: string;
}

export function personCreatedText(p: PersonFacts): string {
  return `Added ${p.username} (${p.role}) · id ${p.user_id}`;
}

export function personUpdatedText(p: PersonFacts): string {
  return `Updated ${p.username} (${p.role}), version ${p.version} · id ${p.user_id}`;
}

export function personDeactivatedText(p: PersonFacts & { deactivated_at: string | null }): string {
  return p.deactivated_at === null
    ? `${p.username} is active, version ${p.version} · id ${p.user_id}`
    : `${p.username} is deactivated since ${p.deactivated_at}: their tokens no longer work · id ${p.user_id}`;
}

interface EventTypeFacts {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly owner: { readonly username: string };
  readonly duration_minutes: number;
  readonly status: string;
  readonly version: number;
}

export function eventTypeCreatedText(e: EventTypeFacts): string {
  return `Created event type ${e.owner.username}/${e.slug} (${e.name}, ${e.duration_minutes} min) · id ${e.id}`;
}

export function eventTypeUpdatedText(e: EventTypeFacts): string {
  return `Updated event type ${e.owner.username}/${e.slug}, ${e.status}, version ${e.version} · id ${e.id}`;
}

export function eventTypeArchivedText(e: EventTypeFacts): string {
  return `Archived event type ${e.owner.username}/${e.slug}; its bookings stay · id ${e.id}`;
}
