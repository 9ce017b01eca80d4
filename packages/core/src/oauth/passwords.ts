import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { findUser } from '../auth/find-user.js';
import type { Clock } from '../clock.js';
import { ScheduleError } from '../errors.js';
import type { Executor } from '../storage/store.js';
import { toTimestamp } from '../time.js';

// How a host proves who they are on the sign-in page (docs/oauth.md): a
// password they set with `schedule passwords set`, stored as scrypt.
// Unlike token secrets, passwords are words people choose, so the hash is
// slow on purpose: ~50 ms per try on one core, and tries are rate limited.

const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const KEY_BYTES = 32;
/** scrypt needs 128 * N * r bytes; the default cap (32 MiB) is exactly that, so it is raised a little. */
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 10;
/** Longer passwords add nothing but hashing cost someone else chooses. */
export const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N: COST, r: BLOCK_SIZE, p: 1, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$salt$key`, base64url parts, so the cost can rise later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${COST}$${BLOCK_SIZE}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, block, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key || Number(cost) !== COST || Number(block) !== BLOCK_SIZE) return false;
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function userWhere(user: string) {
  return (eb: any) => eb.or([eb('username', '=', user), eb('id', '=', user.toLowerCase())]);
}

/**
 * Refuses a password of the wrong length. Exported so that a prompt can
 * refuse it before asking for it a second time, in the same words.
 */
export function assertPasswordLength(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new ScheduleError('validation_error', `A password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`, {
      fields: ['password'],
    });
  }
}

/** Sets a user's sign-in password (by username or id). */
export async function setPassword(db: Executor, deps: { clock: Clock }, user: string, password: string): Promise<{ username: string }> {
  assertPasswordLength(password);
  const row = await db.selectFrom('users').select(['id', 'username']).where(userWhere(user)).executeTakeFirst();
  if (!row) throw new ScheduleError('not_found', `No user "${user}".`, { user });
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password), updated_at: toTimestamp(deps.clock.now()) })
    .where('id', '=', row.id)
    .execute();
  return { username: row.username };
}

/**
 * The records that keep someone signed in on the authorization pages: the
 * authorization server's own session and the host session of the
 * connected-apps page (packages/oauth). Both carry the account id.
 */
const SIGN_IN_MODELS = ['Session', 'HostSession'];

/**
 * Removes a user's password (by username or id), so that they can no longer
 * sign in, and ends the sign-ins they have open: otherwise a browser still
 * signed in could authorize new apps for up to a day. Apps already
 * authorized keep their grants; `schedule oauth-clients revoke` ends those.
 */
export async function clearPassword(db: Executor, deps: { clock: Clock }, user: string): Promise<{ username: string }> {
  const row = await findUser(db, user);
  await db
    .updateTable('users')
    .set({ password_hash: null, updated_at: toTimestamp(deps.clock.now()) })
    .where('id', '=', row.id)
    .execute();
  await db.deleteFrom('oauth_records').where('model', 'in', SIGN_IN_MODELS).where('account_id', '=', row.id).execute();
  return { username: row.username };
}

/**
 * The account id a username and password sign in as, or undefined. An
 * unknown user costs the same hash as a wrong password, so timing does not
 * tell which usernames exist.
 */
export async function checkPassword(db: Executor, username: string, password: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select(['id', 'password_hash']).where('username', '=', username).executeTakeFirst();
  const stored = row?.password_hash ?? DUMMY_HASH;
  const ok = await verifyPassword(password, stored);
  return ok && row?.password_hash ? row.id : undefined;
}

/** A hash of nothing anyone knows, checked when the user does not exist. */
const DUMMY_HASH = `scrypt$${COST}$${BLOCK_SIZE}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;
