import type { IncomingMessage, ServerResponse } from 'node:http';
import { listGrants, type RecordDeps, revokeGrant } from '@schedule/core';
import { csrfMatches, csrfToken } from './csrf.js';
import { readForm } from './form-body.js';
import { endHostSession, isSecure, readHostSession } from './host-session.js';
import type { InteractionDeps } from './interactions.js';
import { appsPage } from './pages/apps-page.js';
import { FORGED, redirect, sendErrorPage, sendPage } from './pages/layout.js';
import { signInPage } from './pages/sign-in-page.js';
import { preSession, readPreSession } from './pre-session.js';
import { signInWith } from './sign-in.js';

// The host's own page of the apps they authorized, each revocable. It
// needs a signed-in host: the sign-in here is the same as in the flow.

export const APPS_PATH = '/oauth/apps';
export const SIGN_IN_PATH = '/oauth/sign-in';

export function connectedApps(deps: Omit<InteractionDeps, 'resources'>) {
  const records: RecordDeps = deps.records;
  /** The sign-in form outside an authorization is bound to this browser's pre-session (pre-session.ts). */
  const PURPOSE = 'sign-in pre-session';

  /** The sign-in form for this browser, its pre-session cookie set or renewed on the answer. */
  function signInForm(req: IncomingMessage, res: ServerResponse, status = 200, error?: string, username?: string): number {
    const csrf = csrfToken(deps.cookieKey, PURPOSE, preSession(req, res, isSecure(req, deps.trustProxy)));
    return sendPage(res, status, 'Sign in', signInPage({ action: SIGN_IN_PATH, csrf, error, username }));
  }

  async function clientName(clientId: string): Promise<string | null> {
    const client = await deps.provider.Client.find(clientId).catch(() => undefined);
    return client?.clientName ?? null;
  }

  async function show(req: IncomingMessage, res: ServerResponse, notice?: string): Promise<number> {
    const session = await readHostSession(records, req);
    if (!session) return redirect(res, SIGN_IN_PATH);
    const user = await records.db.selectFrom('users').select('username').where('id', '=', session.accountId).executeTakeFirst();
    const grants = await listGrants(records.db, { userId: session.accountId });
    const named = await Promise.all(grants.map(async (g) => ({ ...g, clientName: await clientName(g.client_id) })));
    return sendPage(
      res,
      200,
      'Connected apps',
      appsPage({ username: user?.username ?? '', csrf: csrfToken(deps.cookieKey, 'apps', session.id), grants: named, notice }),
    );
  }

  return {
    show: (req: IncomingMessage, res: ServerResponse) => show(req, res),

    signInForm: (req: IncomingMessage, res: ServerResponse) => signInForm(req, res),

    async signIn(req: IncomingMessage, res: ServerResponse, address: string): Promise<number> {
      const form = await readForm(req);
      const bound = readPreSession(req);
      if (bound === undefined) {
        return sendErrorPage(
          res,
          403,
          'This browser did not send the sign-in page’s cookie; allow cookies for this site, reload the page and try again.',
        );
      }
      // A token from another browser's form (an attacker's own, posted from elsewhere) is bound to that browser's cookie, not this one.
      if (!csrfMatches(deps.cookieKey, PURPOSE, bound, form.get('csrf') ?? undefined)) return sendErrorPage(res, 403, FORGED);
      const outcome = await signInWith(deps, req, res, form, address);
      if (!outcome.signedIn) return signInForm(req, res, outcome.status, outcome.error, outcome.username);
      return redirect(res, APPS_PATH);
    },

    async revoke(req: IncomingMessage, res: ServerResponse): Promise<number> {
      const form = await readForm(req);
      const session = await readHostSession(records, req);
      if (!session) return redirect(res, SIGN_IN_PATH);
      if (!csrfMatches(deps.cookieKey, 'apps', session.id, form.get('csrf') ?? undefined)) return sendErrorPage(res, 403, FORGED);
      const revoked = await revokeGrant(records.db, form.get('grant_id') ?? '', session.accountId);
      return show(req, res, revoked ? 'The app was disconnected; its tokens no longer work.' : 'That app was already disconnected.');
    },

    async signOut(req: IncomingMessage, res: ServerResponse): Promise<number> {
      const session = await readHostSession(records, req);
      if (session) await endHostSession(records, res, session, isSecure(req, deps.trustProxy));
      return redirect(res, SIGN_IN_PATH);
    },
  };
}
