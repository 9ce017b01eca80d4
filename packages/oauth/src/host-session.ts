import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { destroyRecord, findRecord, type RecordDeps, upsertRecord } from '@schedule/core';
import { appendCookie, readCookie } from './cookies.js';

// A host signed in on the authorization pages. It lets them authorize
// another app without typing the password again and see their connected
// apps. The cookie holds a random secret; the database holds its digest.

const COOKIE = 'schedule_session';
const MODEL = 'HostSession';
export const HOST_SESSION_SECONDS = 24 * 60 * 60;

export interface HostSession {
  readonly id: string;
  readonly accountId: string;
}

/** Whether this request reached us over https (directly, or through a proxy we trust to say so). */
export function isSecure(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  return (
    trustProxy &&
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim() === 'https'
  );
}

export async function readHostSession(deps: RecordDeps, req: IncomingMessage): Promise<HostSession | undefined> {
  const id = readCookie(req, COOKIE);
  if (!id || id.length > 100) return undefined;
  const record = await findRecord(deps, MODEL, id);
  return typeof record?.accountId === 'string' ? { id, accountId: record.accountId } : undefined;
}

function setCookie(res: ServerResponse, value: string, maxAge: number, secure: boolean): void {
  // SameSite=Lax: another site's form cannot post with it, and a link from an app still arrives signed in.
  appendCookie(res, COOKIE, value, { path: '/oauth', sameSite: 'Lax', maxAgeSeconds: maxAge, secure });
}

export async function startHostSession(deps: RecordDeps, res: ServerResponse, accountId: string, secure: boolean): Promise<HostSession> {
  const id = randomBytes(32).toString('base64url');
  await upsertRecord(deps, MODEL, id, { accountId }, HOST_SESSION_SECONDS);
  setCookie(res, id, HOST_SESSION_SECONDS, secure);
  return { id, accountId };
}

export async function endHostSession(deps: RecordDeps, res: ServerResponse, session: HostSession, secure: boolean): Promise<void> {
  await destroyRecord(deps, MODEL, session.id);
  setCookie(res, '', 0, secure);
}
