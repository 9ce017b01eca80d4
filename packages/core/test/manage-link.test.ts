import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../src/clock.js';
import {
  MAX_MANAGE_LINK_LENGTH,
  manageLinkKey,
  manageLinkPath,
  manageLinkWriter,
  readManageLink,
  signManageLink,
} from '../src/manage-links/manage-link.js';
import type { Executor, Store } from '../src/storage/store.js';
import { storeFixtures } from './support/stores.js';

// Manage links (manage-links/manage-link.ts): a token names one booking and
// its end of life, and nothing but the key's holder can make one.

const KEY = 'k'.repeat(43);
const OTHER_KEY = 'o'.repeat(43);
const UID = '30000000-0000-4000-8000-0000000000a1';
const OTHER_UID = '30000000-0000-4000-8000-0000000000b2';
const END = Date.parse('2026-03-02T09:30:00.000Z');

const macOf = (key: string, uid: string, expiresAt: string) =>
  createHmac('sha256', key).update(`schedule manage link v1\n${uid}\n${expiresAt}`).digest('base64url');

describe('manage link tokens', () => {
  const token = signManageLink(KEY, UID, END);

  it('is the uid, the end in seconds and the HMAC of both under the key, bound to its purpose', () => {
    expect(token).toBe(`${UID}.${END / 1000}.${macOf(KEY, UID, String(END / 1000))}`);
    expect(token.length).toBeLessThanOrEqual(MAX_MANAGE_LINK_LENGTH);
  });

  it('rounds an end inside a second up, so a link never stops early', () => {
    expect(signManageLink(KEY, UID, END + 1).split('.')[1]).toBe(String(END / 1000 + 1));
  });

  it('reads back the booking while the link lives, and as expired from its end on', () => {
    expect(readManageLink(KEY, token, END - 1)).toEqual({ kind: 'valid', bookingUid: UID, expiresAtMs: END });
    expect(readManageLink(KEY, token, END)).toEqual({ kind: 'expired', bookingUid: UID, expiresAtMs: END });
  });

  it('reads a booking uid in upper case as it was signed', () => {
    const upper = UID.toUpperCase();
    expect(readManageLink(KEY, signManageLink(KEY, upper, END), 0)).toMatchObject({ kind: 'valid', bookingUid: upper });
  });

  it('refuses what the key did not sign: another key, another booking, a later end, another purpose', () => {
    const [, expiresAt, mac] = token.split('.');
    const forged = [
      signManageLink(OTHER_KEY, UID, END),
      `${OTHER_UID}.${expiresAt}.${mac}`,
      `${UID}.${Number(expiresAt) + 86_400}.${mac}`,
      `${UID}.${expiresAt}.${createHmac('sha256', KEY).update(`${UID}\n${expiresAt}`).digest('base64url')}`,
    ];
    for (const presented of forged) expect(readManageLink(KEY, presented, 0)).toEqual({ kind: 'invalid' });
  });

  it('refuses an expired link that was never signed as invalid, not expired', () => {
    expect(readManageLink(KEY, `${UID}.1.${'A'.repeat(43)}`, END)).toEqual({ kind: 'invalid' });
  });

  it('refuses a token of the wrong shape even when its HMAC holds: extra parts, a uid that is not one, an expiry that is not whole seconds', async () => {
    // The module's patterns are built when it loads: a fresh import lets a change to them be seen here.
    vi.resetModules();
    const fresh = await import('../src/manage-links/manage-link.js');
    const signed = (uid: string, expiresAt: string) => `${uid}.${expiresAt}.${macOf(KEY, uid, expiresAt)}`;
    const wrongShape = [
      `${signed(UID, '1')}.x`,
      signed('z'.repeat(36), '1'),
      signed(`x${UID.slice(1)}`, '1'),
      signed(UID.slice(0, 35), '1'),
      signed(`x${UID}`, '1'),
      signed(`${UID}x`, '1'),
      signed(UID, '1e9'),
      signed(UID, '-1'),
      signed(UID, ''),
      signed(UID, '9'.repeat(12)),
      signed(UID, ' 1'),
      signed(UID, '1 '),
    ];
    for (const presented of wrongShape) expect(fresh.readManageLink(KEY, presented, 0)).toEqual({ kind: 'invalid' });
    // The longest expiry it writes, and a uid in capitals, are read.
    expect(fresh.readManageLink(KEY, signed(UID, '9'.repeat(11)), 0).kind).toBe('valid');
    expect(fresh.readManageLink(KEY, signed(UID.toUpperCase(), '1'), 0).kind).toBe('valid');
  });

  it('refuses a MAC that is not 43 base64url characters before comparing it, and never throws', async () => {
    vi.resetModules();
    const fresh = await import('../src/manage-links/manage-link.js');
    const [, expiresAt, mac] = token.split('.') as [string, string, string];
    const badMacs = [mac.slice(1), `${mac.slice(1)}=`, `${mac.slice(1)}+`, `${mac.slice(1)}/`, `${mac.slice(2)}é`, `${mac}A`, ''];
    for (const bad of badMacs) expect(fresh.readManageLink(KEY, `${UID}.${expiresAt}.${bad}`, 0)).toEqual({ kind: 'invalid' });
    // Every character of the alphabet is taken: a MAC holding - and _ is read (and here, not signed: invalid, not thrown).
    for (const edge of ['-', '_', 'A', 'z', '0', '9']) {
      expect(fresh.readManageLink(KEY, `${UID}.${expiresAt}.${edge.repeat(43)}`, 0)).toEqual({ kind: 'invalid' });
    }
    expect(fresh.readManageLink(KEY, token, 0).kind).toBe('valid');
  });

  it('refuses the empty token and parts left out', () => {
    const [, expiresAt] = token.split('.') as [string, string];
    for (const presented of ['', UID, `${UID}.${expiresAt}`, `${UID}..`, `.${expiresAt}.`]) {
      expect(readManageLink(KEY, presented, 0)).toEqual({ kind: 'invalid' });
    }
  });

  it('reads a link of the longest length it may have, and nothing longer', () => {
    const latest = signManageLink(KEY, UID, 99_999_999_999_000);
    expect(latest.length).toBe(MAX_MANAGE_LINK_LENGTH);
    expect(readManageLink(KEY, latest, 0).kind).toBe('valid');
    expect(readManageLink(KEY, `${latest}.`, 0)).toEqual({ kind: 'invalid' });
  });

  it('refuses a token one character over the bound without reading it', () => {
    const split = vi.spyOn(String.prototype, 'split');
    expect(readManageLink(KEY, 'x'.repeat(MAX_MANAGE_LINK_LENGTH + 1), 0)).toEqual({ kind: 'invalid' });
    expect(split).not.toHaveBeenCalled();
    split.mockRestore();
  });
});

describe.each(storeFixtures())('the manage link key on $name', (fixture) => {
  let store: Store;

  beforeAll(async () => {
    store = await fixture.open();
  });
  afterAll(() => fixture.cleanup());

  it('is made once, 32 random bytes, and read back by every later caller, even two asking at once', async () => {
    const clock = manualClock('2026-03-01T00:00:00.000Z');
    // The key's name is a constant built when the module loads: a fresh import lets a change to it be seen here.
    vi.resetModules();
    const fresh = await import('../src/manage-links/manage-link.js');
    const [a, b] = await Promise.all([fresh.manageLinkKey(store.db, { clock }), fresh.manageLinkKey(store.db, { clock })]);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).toBe(a);
    expect(await manageLinkKey(store.db, { clock })).toBe(a);
    // The row docs/api/choices.md names: deleting it ends every link.
    const rows = await store.db.selectFrom('server_secrets').selectAll().where('name', '=', 'manage_link_key').execute();
    expect(rows).toEqual([{ name: 'manage_link_key', value: a, created_at: '2026-03-01T00:00:00.000Z' }]);
  });

  it('ends every link when deleted: a new key is made, and old links no longer read', async () => {
    const clock = manualClock('2026-03-01T00:00:00.000Z');
    const before = await manageLinkKey(store.db, { clock });
    const link = signManageLink(before, UID, END);
    await store.db.deleteFrom('server_secrets').where('name', '=', 'manage_link_key').execute();
    const after = await manageLinkKey(store.db, { clock });
    expect(after).not.toBe(before);
    expect(readManageLink(after, link, 0)).toEqual({ kind: 'invalid' });
  });
});

describe('manage link paths', () => {
  it('is the token under /booking/', () => {
    expect(manageLinkPath('abc.1.mac')).toBe('/booking/abc.1.mac');
  });
});

/** The database, failing every query while `broken.now` is set: a database that is away. */
function breakable(db: Executor, broken: { now: boolean }): Executor {
  return new Proxy(db, {
    get(target, key) {
      if (broken.now && (key === 'selectFrom' || key === 'insertInto' || key === 'transaction')) throw new Error('database away');
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(storeFixtures())('manage link writers on $name', (fixture) => {
  let store: Store;
  const clock = manualClock('2026-03-01T00:00:00.000Z');
  const END_AT = '2026-03-02T09:30:00.000Z';

  beforeAll(async () => {
    store = await fixture.open();
  });
  afterAll(() => fixture.cleanup());

  const secrets = () => store.db.selectFrom('server_secrets').select('value').where('name', '=', 'manage_link_key').execute();

  it('writes the absolute link under the public address, one slash between, valid until the meeting ends', async () => {
    const write = manageLinkWriter(store.db, { clock }, () => 'https://book.test//');
    const link = await write(UID, END_AT);
    const key = await manageLinkKey(store.db, { clock });
    expect(link).toBe(`https://book.test/booking/${signManageLink(key, UID, Date.parse(END_AT))}`);
    const token = (link as string).slice('https://book.test/booking/'.length);
    expect(readManageLink(key, token, Date.parse(END_AT) - 1)).toEqual({ kind: 'valid', bookingUid: UID, expiresAtMs: Date.parse(END_AT) });
    expect(readManageLink(key, token, Date.parse(END_AT)).kind).toBe('expired');
    // An address without a trailing slash is taken as it is.
    expect(await manageLinkWriter(store.db, { clock }, () => 'http://127.0.0.1:8080')(UID, END_AT)).toBe(
      `http://127.0.0.1:8080/booking/${signManageLink(key, UID, Date.parse(END_AT))}`,
    );
  });

  it('writes none where no server serves pages, and reads no key for it', async () => {
    await store.db.deleteFrom('server_secrets').execute();
    const broken = { now: true };
    const write = manageLinkWriter(breakable(store.db, broken), { clock }, () => undefined);
    expect(await write(UID, END_AT)).toBeUndefined();
    expect(await secrets()).toEqual([]);
  });

  it('reads the address per link: a server on port 0 knows it only once it listens', async () => {
    let address: string | undefined;
    const write = manageLinkWriter(store.db, { clock }, () => address);
    expect(await write(UID, END_AT)).toBeUndefined();
    address = 'https://late.test';
    expect(await write(UID, END_AT)).toMatch(/^https:\/\/late\.test\/booking\//);
  });

  it('reads the key once: links written after the row is deleted are still signed with the key it read', async () => {
    const write = manageLinkWriter(store.db, { clock }, () => 'https://book.test');
    const first = await write(UID, END_AT);
    const key = await manageLinkKey(store.db, { clock });
    await store.db.deleteFrom('server_secrets').execute();
    const second = await write(OTHER_UID, END_AT);
    expect(second).toBe(`https://book.test/booking/${signManageLink(key, OTHER_UID, Date.parse(END_AT))}`);
    expect(first).toBe(`https://book.test/booking/${signManageLink(key, UID, Date.parse(END_AT))}`);
  });

  it('asks for the key again after a read that failed, and fails that link', async () => {
    await store.db.deleteFrom('server_secrets').execute();
    const broken = { now: true };
    const write = manageLinkWriter(breakable(store.db, broken), { clock }, () => 'https://book.test');
    await expect(write(UID, END_AT)).rejects.toThrow('database away');
    broken.now = false;
    const link = await write(UID, END_AT);
    const key = await manageLinkKey(store.db, { clock });
    expect(link).toBe(`https://book.test/booking/${signManageLink(key, UID, Date.parse(END_AT))}`);
  });
});
