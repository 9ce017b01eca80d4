import type { IncomingMessage, ServerResponse } from 'node:http';
import { type RecordDeps, SCOPES } from '@schedule/core';
import type Provider from 'oidc-provider';
import { csrfMatches, csrfToken } from './csrf.js';
import { readForm } from './form-body.js';
import { readHostSession } from './host-session.js';
import { consentPage } from './pages/consent-page.js';
import { escapeHtml, FORGED, sendErrorPage, sendPage } from './pages/layout.js';
import { signInPage } from './pages/sign-in-page.js';
import { redirectDestination } from './redirect-destination.js';
import { mcpResources, type Resources } from './resources.js';
import { type SignInDeps, signInWith } from './sign-in.js';

// The two steps a host goes through when an app asks for access: sign in
// (skipped while they have a session), then consent, where they may untick
// scopes. oidc-provider keeps the request between the steps (the
// "interaction"); these handlers show the pages and give it the outcome.

export interface InteractionDeps extends SignInDeps {
  readonly provider: Provider;
  readonly resources: Resources;
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

const KNOWN_SCOPES = new Set<string>(SCOPES);

async function clientNameOf(provider: Provider, clientId: string): Promise<string> {
  const client = await provider.Client.find(clientId).catch(() => undefined);
  return client?.clientName ?? clientId;
}

async function usernameOf(records: RecordDeps, accountId: string): Promise<string> {
  const user = await records.db.selectFrom('users').select('username').where('id', '=', accountId).executeTakeFirst();
  return user?.username ?? accountId;
}

/** The scopes this consent is about: per resource, those not yet granted or refused. */
function missingScopes(details: Details): Record<string, string[]> {
  const missing = (details.prompt.details.missingResourceScopes ?? {}) as Record<string, string[]>;
  return Object.fromEntries(Object.entries(missing).map(([resource, scopes]) => [resource, scopes.filter((s) => KNOWN_SCOPES.has(s))]));
}

/** Every scope of api.md the host is asked about, whether the library files it under the resource or the server. */
function askedScopes(details: Details): string[] {
  const own = ((details.prompt.details.missingOIDCScope ?? []) as string[]).filter((s) => KNOWN_SCOPES.has(s));
  return [...new Set([...Object.values(missingScopes(details)).flat(), ...own])];
}

export function interactionHandlers(deps: InteractionDeps) {
  const { provider } = deps;

  /** The details of the interaction this browser is in, or undefined when its cookie is gone or it is another one. */
  async function detailsFor(req: IncomingMessage, res: ServerResponse, uid: string): Promise<Details | undefined> {
    try {
      const details = await provider.interactionDetails(req, res);
      return details.uid === uid ? details : undefined;
    } catch {
      return undefined;
    }
  }

  function resourceName(resource: string): string {
    return mcpResources(deps.resources).includes(resource) ? 'the MCP server (tools for AI assistants)' : 'the scheduling API';
  }

  async function showConsent(res: ServerResponse, details: Details, status = 200): Promise<number> {
    const missing = missingScopes(details);
    const scopes = askedScopes(details);
    const resource = Object.keys(missing)[0] ?? String(details.params.resource ?? deps.resources.api);
    const accountId = details.session?.accountId ?? '';
    return sendPage(
      res,
      status,
      'Allow access',
      consentPage({
        action: `/oauth/interaction/${details.uid}/consent`,
        csrf: csrfToken(deps.cookieKey, 'consent', details.uid),
        clientName: await clientNameOf(provider, String(details.params.client_id)),
        clientId: String(details.params.client_id),
        destination: redirectDestination(String(details.params.redirect_uri ?? '')),
        username: await usernameOf(deps.records, accountId),
        resourceName: resourceName(resource),
        scopes,
      }),
    );
  }

  async function showSignIn(res: ServerResponse, details: Details, status = 200, error?: string, username?: string): Promise<number> {
    return sendPage(
      res,
      status,
      'Sign in',
      signInPage({
        action: `/oauth/interaction/${details.uid}/sign-in`,
        csrf: csrfToken(deps.cookieKey, 'sign-in', details.uid),
        clientName: await clientNameOf(provider, String(details.params.client_id)),
        error,
        username,
      }),
    );
  }

  const gone = (res: ServerResponse) =>
    sendErrorPage(res, 400, 'This sign-in has expired or was opened in another browser. Go back to the app and start again.');

  return {
    /** GET /oauth/interaction/:uid: the page for the step the request is at. */
    async show(req: IncomingMessage, res: ServerResponse, uid: string): Promise<number> {
      const details = await detailsFor(req, res, uid);
      if (!details) return gone(res);
      if (details.prompt.name === 'login') {
        const session = await readHostSession(deps.records, req);
        if (session) {
          await provider.interactionFinished(req, res, { login: { accountId: session.accountId } }, { mergeWithLastSubmission: false });
          return 303;
        }
        return showSignIn(res, details);
      }
      if (details.prompt.name === 'consent') return showConsent(res, details);
      return sendErrorPage(res, 400, `This server cannot complete the "${escapeHtml(details.prompt.name)}" step.`);
    },

    /** POST /oauth/interaction/:uid/sign-in */
    async signIn(req: IncomingMessage, res: ServerResponse, uid: string, address: string): Promise<number> {
      const form = await readForm(req);
      const details = await detailsFor(req, res, uid);
      if (details?.prompt.name !== 'login') return gone(res);
      // Bound to the interaction, which the library binds to this browser by its own cookie: another browser's form does not match.
      if (!csrfMatches(deps.cookieKey, 'sign-in', uid, form.get('csrf') ?? undefined)) return sendErrorPage(res, 403, FORGED);
      const outcome = await signInWith(deps, req, res, form, address);
      if (!outcome.signedIn) return showSignIn(res, details, outcome.status, outcome.error, outcome.username);
      await provider.interactionFinished(req, res, { login: { accountId: outcome.accountId } }, { mergeWithLastSubmission: false });
      return 303;
    },

    /** POST /oauth/interaction/:uid/consent */
    async consent(req: IncomingMessage, res: ServerResponse, uid: string): Promise<number> {
      const form = await readForm(req);
      const details = await detailsFor(req, res, uid);
      if (details?.prompt.name !== 'consent') return gone(res);
      if (!csrfMatches(deps.cookieKey, 'consent', uid, form.get('csrf') ?? undefined)) return sendErrorPage(res, 403, FORGED);
      const chosen = new Set(form.getAll('scope'));
      const missing = missingScopes(details);
      const asked = askedScopes(details);
      const allowedAny = asked.some((s) => chosen.has(s));
      const nothingAsked = asked.length === 0;
      if (form.get('decision') !== 'allow' || (!allowedAny && !nothingAsked)) {
        const result = { error: 'access_denied', error_description: 'The user did not allow access.' };
        await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
        return 303;
      }
      const accountId = details.session?.accountId ?? '';
      const clientId = String(details.params.client_id);
      const grant =
        (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
      for (const [resource, scopes] of Object.entries(missing)) {
        const kept = scopes.filter((s) => chosen.has(s));
        const refused = scopes.filter((s) => !chosen.has(s));
        if (kept.length) grant.addResourceScope(resource, kept.join(' '));
        // Refused scopes are remembered as answered, so the host is not asked again for the same request.
        if (refused.length) grant.rejectResourceScope(resource, refused.join(' '));
      }
      // The library asks for the scopes as the server's own too (authorization-server.ts): the same choice is recorded there.
      // Besides those, only `offline_access` is granted (it changes nothing, docs/oauth.md). `openid` is always refused: the library
      // counts it as asked whatever the server's scopes are, and granting it would issue an ID token (docs/oauth.md "Not offered").
      const ownAsked = (details.prompt.details.missingOIDCScope ?? []) as string[];
      const grantable = (s: string) => s === 'offline_access' || (KNOWN_SCOPES.has(s) && chosen.has(s));
      const keptOwn = ownAsked.filter(grantable);
      const refusedOwn = ownAsked.filter((s) => !grantable(s));
      if (keptOwn.length) grant.addOIDCScope(keptOwn.join(' '));
      if (refusedOwn.length) grant.rejectOIDCScope(refusedOwn.join(' '));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return 303;
    },
  };
}
