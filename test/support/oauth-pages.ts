import { join } from 'node:path';
import { openStore, type Store } from '@schedule/core';
import { expect } from 'vitest';
import type { ApiResponse } from './http.js';
import { type MovableClock, movableClock, startInProcess } from './in-process.js';
import { type PageResponse, setUserPassword } from './oauth-browser.js';
import { type TestSchema, testSchema } from './postgres.js';
import { type TestServer, tempDir, writeWorkspace } from './serve.js';
import { buildWorkspace, type Limits } from './workspace.js';

// What the tests of the authorization server's refusals share: reading its
// HTML pages, and a server on either store that the test can also open.

const HIGH = 10_000;
/** Every bucket raised high enough that no case of a file is refused for its rate. */
export const RAISED_LIMITS: Limits = {
  pat_per_minute: HIGH,
  oauth_per_minute: HIGH,
  anonymous_per_minute: HIGH,
  oauth_authorize_per_minute: HIGH,
  oauth_token_per_minute: HIGH,
  oauth_revoke_per_minute: HIGH,
  oauth_introspect_per_minute: HIGH,
  oauth_register_per_minute: HIGH,
  oauth_pages_per_minute: HIGH,
  sign_in_per_minute: HIGH,
};

/** A page as http.ts reads it or as TestBrowser does. */
export type Answer = ApiResponse | PageResponse;

export const htmlOf = (answer: Answer) => ('text' in answer ? answer.text : answer.body);

/** What a page shows: the contents of its body element. */
export const bodyOf = (answer: Answer) => /<body>([\s\S]*)<\/body><\/html>$/.exec(htmlOf(answer))?.[1];

const PAGE_POLICY = /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; frame-ancestors 'none'; base-uri 'none'$/;

/** One of our HTML pages: its status, the headers every page carries, no redirect, and `says` in its text (HTML-escaped). */
export function expectPage(answer: Answer, status: number, says?: string): void {
  const html = htmlOf(answer);
  if (answer.status !== status) throw new Error(`expected a ${status} page, got ${answer.status}: ${html.slice(0, 600)}`);
  expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(answer.headers.get('content-security-policy')).toMatch(PAGE_POLICY);
  expect(answer.headers.get('x-frame-options')).toBe('DENY');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('location')).toBeNull();
  expect(html).toMatch(/^<!doctype html>/);
  // Never a stack trace, whatever went wrong.
  expect(html).not.toMatch(/\n\s+at |\.(ts|js):\d+:\d+/);
  if (says !== undefined) expect(html).toContain(says.replace(/"/g, '&#34;').replace(/'/g, '&#39;'));
}

/** The session cookie an answer sets, if any. */
export const sessionCookieOf = (answer: { headers: Headers }) =>
  answer.headers.getSetCookie().find((line) => line.startsWith('schedule_session='));

/** `schedule serve` in process on a file SQLite database or a fresh PostgreSQL schema, which the test opens too. */
export interface StoreServer {
  readonly clock: MovableClock;
  readonly server: TestServer;
  readonly db: string;
  readonly store: Store;
  stop(): Promise<void>;
}

/** Starts a server with the workspace's `limits`, the environment `env`, and `passwords` set for these users. */
export async function startOnStore(
  backend: 'sqlite' | 'postgres',
  options: { limits: Limits; env: Record<string, string>; passwords: Record<string, string> },
): Promise<StoreServer> {
  const schema: TestSchema | undefined = backend === 'postgres' ? testSchema() : undefined;
  const db = schema?.dbUrl ?? join(tempDir(), 'schedule.db');
  const clock = movableClock();
  const server = await startInProcess(
    { workspace: writeWorkspace(buildWorkspace({ limits: options.limits }).workspace), db, clock },
    options.env,
  );
  for (const [user, password] of Object.entries(options.passwords)) await setUserPassword(db, user, password);
  const store = await openStore(db);
  return {
    clock,
    server,
    db,
    store,
    async stop() {
      await store.close();
      await server.stop();
      await schema?.drop();
    },
  };
}
