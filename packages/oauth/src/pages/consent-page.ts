import type { Scope } from '@schedule/core';
import { escapeHtml } from './layout.js';

/** What each scope lets an app do, in a host's words; a Record over the scopes, so a new one without words does not compile. */
const SCOPE_WORDS: Record<Scope, string> = {
  'series:read': 'See your recurring series',
  'series:write': 'Create, pause, resume, end and change your recurring series',
  'bookings:read': 'See your bookings and who booked them',
  'bookings:create': 'Book meetings',
  'bookings:cancel': 'Cancel bookings',
  'bookings:reschedule': 'Reschedule bookings',
  'bookings:update': 'Edit the details of bookings',
  'slots:read': 'See when you are free',
  'webhooks:read': 'See your webhooks and what they were sent',
  // Said plainly: a webhook sends your bookings and series to an address the app chooses.
  'webhooks:write': 'Send your booking and series changes to web addresses it chooses (webhooks)',
  'calendars:read': 'See which calendar accounts (CalDAV) you connected, never their passwords',
  // Said plainly: the app hands over a calendar password, and the account receives your bookings.
  'calendars:write': 'Connect and disconnect calendar accounts (CalDAV) with passwords it gives',
  'event_types:write': 'Create, change and archive your event types',
  'availability:read': 'See your working hours and time off',
  'availability:write': 'Change your working hours and time off',
  // Said plainly: for an admin this is everyone in the organization.
  'people:write': 'Change profiles, and for admins add, change and deactivate people',
  'tokens:read': 'See your access tokens, never their secrets',
  // Said plainly: a new token is a new way into your account.
  'tokens:write': 'Make and revoke access tokens for your account',
};

export interface ConsentView {
  readonly action: string;
  readonly csrf: string;
  readonly clientName: string;
  readonly clientId: string;
  /** Where the browser goes after the answer (the request's redirect URI), in redirect-destination.ts's words. */
  readonly destination: string;
  readonly username: string;
  /** What the token will be for, in words ("the HTTP API", "the MCP server"). */
  readonly resourceName: string;
  readonly scopes: readonly string[];
}

export function consentPage(view: ConsentView): string {
  const boxes = view.scopes
    .map(
      (scope) =>
        `<label><input type="checkbox" name="scope" value="${escapeHtml(scope)}" checked> ${escapeHtml(SCOPE_WORDS[scope as Scope] ?? scope)} <code>${escapeHtml(scope)}</code></label>`,
    )
    .join('\n');
  return `<h1>Allow ${escapeHtml(view.clientName)}?</h1>
<p><strong>${escapeHtml(view.clientName)}</strong> <span class="note">(<code>${escapeHtml(view.clientId)}</code>)</span> asks to use ${escapeHtml(view.resourceName)} as <strong>${escapeHtml(view.username)}</strong>. Untick what it should not do.</p>
<p>Your answer goes to <strong>${escapeHtml(view.destination)}</strong>. The name above is the one the app chose for itself; this address is where it really is.</p>
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
${boxes}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<p class="note">You can take this back at any time on the <a href="/oauth/apps">connected apps</a> page.</p>`;
}
