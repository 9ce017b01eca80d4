import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkPassword, listGrants, type RecordDeps, revokeGrant } from '@schedule/core';
import { csrfMatches, csrfToken } from './csrf.js';
import { readForm } from './form-body.js';
import { endHostSession, isSecure, readHostSession, startHostSession } from './host-session.js';
import type { InteractionDeps } from './interactions.js';
import { appsPage } from './pages/apps-page.js';
import { redirect, sendErrorPage, sendPage } from './pages/layout.js';
import { signInPage } from './pages/sign-in-page.js';
import { signInAllowed } from './sign-in-limit.js';

// The host's own page of the apps they authorized, each revocable. It
// needs a signed-in host: the sign-in here is the same as in the flow.

export const APPS_PATH = '/oauth/apps';
export const SIGN_IN_PATH = '/oauth/sign-in';

export function connectedApps(deps: Omit<InteractionDeps, 'resources'>) {
  const records: RecordDeps = deps.records;
  /** The sign-in form outside an authorization is bound to nothing per-request; its token only proves it came from our page. */
  const signInCsrf = csrfToken(deps.cookieKey, 'sign-in', SIGN_IN_PATH);

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

    signInForm: (res: ServerResponse) => sendPage(res, 200, 'Sign in', signInPage({ action: SIGN_IN_PATH, csrf: signInCsrf })),

    async signIn(req: IncomingMessage, res: ServerResponse, address: string): Promise<number> {
      const form = await readForm(req);
      if (!csrfMatches(deps.cookieKey, 'sign-in', SIGN_IN_PATH, form.get('csrf') ?? undefined)) {
        return sendErrorPage(res, 403, 'The form is missing its anti-forgery token; reload the page and try again.');
      }
      const username = (form.get('username') ?? '').trim().slice(0, 100);
      const password = form.get('password') ?? '';
      const page = (status: number, error: string) =>
        sendPage(res, status, 'Sign in', signInPage({ action: SIGN_IN_PATH, csrf: signInCsrf, error, username }));
      const allowed = await signInAllowed(deps, address, username);
      if (!allowed.ok) {
        res.setHeader('Retry-After', String(allowed.retryAfterSeconds));
        return page(429, `Too many sign-in attempts; wait ${allowed.retryAfterSeconds} seconds and try again.`);
      }
      const accountId = username && password ? await checkPassword(records.db, username, password) : undefined;
      if (!accountId) return page(401, 'The username or password is not right.');
      await startHostSession(records, res, accountId, isSecure(req, deps.trustProxy));
      return redirect(res, APPS_PATH);
    },

    async revoke(req: IncomingMessage, res: ServerResponse): Promise<number> {
      const form = await readForm(req);
      const session = await readHostSession(records, req);
      if (!session) return redirect(res, SIGN_IN_PATH);
      if (!csrfMatches(deps.cookieKey, 'apps', session.id, form.get('csrf') ?? undefined)) {
        return sendErrorPage(res, 403, 'The form is missing its anti-forgery token; reload the page and try again.');
      }
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
