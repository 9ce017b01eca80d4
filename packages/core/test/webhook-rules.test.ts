import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERY_SETTINGS } from '../src/webhooks/delivery/delivery-deps.js';
import { deliverySlots, type Standing } from '../src/webhooks/delivery/delivery-slots.js';
import { backoffMs, backoffUntil, MAX_BACKOFF_MS, MIN_BACKOFF_MS } from '../src/webhooks/delivery/receiver-backoff.js';
import { retryAfterMs } from '../src/webhooks/delivery/retry-after.js';
import { MAX_ATTEMPTS, nextAttemptDelay, RETRY_DELAYS_MS } from '../src/webhooks/delivery/retry-schedule.js';
import { signatureHeader, signingSecrets } from '../src/webhooks/delivery/sign-delivery.js';
import { isPrivateAddress, privateAddressKind } from '../src/webhooks/private-address.js';

// The pure rules of delivery: which addresses are refused, the retry
// schedule and Retry-After, and which secrets sign. The suites with a
// database and a receiver show them at work.

describe('private addresses', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['localhost', 'not an IP address'],
  ])('%s is refused as %s', (ip, kind) => {
    expect(privateAddressKind(ip)).toBe(kind);
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '11.0.0.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is public', (ip) => {
    expect(privateAddressKind(ip)).toBeUndefined();
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe('the retry schedule', () => {
  const S = 1000;
  const M = 60 * S;
  const H = 60 * M;

  it('after attempt 1 (immediate): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then none', () => {
    expect(RETRY_DELAYS_MS).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => nextAttemptDelay(n))).toEqual([
      5 * S,
      5 * M,
      30 * M,
      2 * H,
      5 * H,
      10 * H,
      10 * H,
      undefined,
    ]);
  });

  it('a Retry-After longer than the schedule wins, up to 10 h; a shorter one does not hurry it', () => {
    expect(nextAttemptDelay(1, 120 * S)).toBe(120 * S);
    expect(nextAttemptDelay(1, 1 * S)).toBe(5 * S);
    expect(nextAttemptDelay(2, 3 * 24 * H)).toBe(10 * H);
    expect(nextAttemptDelay(8, 1 * S)).toBeUndefined();
  });

  it('Retry-After in seconds or as an HTTP date; unreadable is none, a past date no wait', () => {
    const now = Date.parse('2026-03-02T08:00:00.000Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Mon, 02 Mar 2026 08:10:00 GMT', now)).toBe(10 * M);
    expect(retryAfterMs('Mon, 02 Mar 2026 07:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});

describe('slots of one process', () => {
  const prompt = (webhook: string, owner = `owner-of-${webhook}`): Standing => ({
    webhook_id: webhook,
    owner_user_id: owner,
    answers_promptly: true,
  });
  const unproven = (webhook: string, owner = `owner-of-${webhook}`): Standing => ({ ...prompt(webhook, owner), answers_promptly: false });
  /** Takes as many as the slots admit, up to `most`; answers how many. */
  const fill = (slots: ReturnType<typeof deliverySlots>, standing: Standing, most = 100) => {
    let n = 0;
    while (n < most && slots.admits(standing)) {
      slots.take(standing);
      n++;
    }
    return n;
  };

  it('16 in all, 4 to a webhook that answers promptly, 1 to any other', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    expect(fill(slots, prompt('a'))).toBe(4);
    expect(fill(slots, unproven('b'))).toBe(1);
    expect(fill(slots, prompt('c'))).toBe(4);
    expect(fill(slots, prompt('d'))).toBe(4);
    expect(fill(slots, prompt('e'))).toBe(3);
    expect(slots.inFlight()).toBe(16);
    expect(slots.exclusions()).toEqual({ free: 0, webhooks: ['a', 'b', 'c', 'd'], owners: [], promptOnly: false });
  });

  it('8 to the webhooks of one account, however many it has', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    expect(['a', 'b', 'c'].map((w) => fill(slots, prompt(w, 'mallory')))).toEqual([4, 4, 0]);
    expect(fill(slots, unproven('d', 'mallory'))).toBe(0);
    expect(fill(slots, prompt('e', 'alice'))).toBe(4);
    expect(slots.exclusions()).toMatchObject({ free: 4, owners: ['mallory'] });
  });

  it('12 to receivers not proven prompt: the last 4 stay for those that are', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    const taken = Array.from({ length: 14 }, (_, i) => fill(slots, unproven(`slow-${i}`)));
    expect(taken).toEqual([...Array(12).fill(1), 0, 0]);
    expect(slots.exclusions()).toMatchObject({ free: 4, promptOnly: true });
    expect(fill(slots, prompt('fast'))).toBe(4);
    expect(slots.inFlight()).toBe(16);
  });

  it('gives back as it took: a slot, the account’s, and the unproven one; a webhook whose requests all ended is no longer excluded', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    for (let i = 0; i < 12; i++) slots.take(unproven(`slow-${i}`, 'mallory'));
    slots.giveBack(unproven('slow-0', 'mallory'));
    expect(slots.inFlight()).toBe(11);
    expect(slots.exclusions()).toMatchObject({ free: 5, promptOnly: false, owners: ['mallory'] });
    expect(slots.exclusions().webhooks).not.toContain('slow-0');
    for (let i = 1; i < 5; i++) slots.giveBack(unproven(`slow-${i}`, 'mallory'));
    expect(slots.exclusions().owners).toEqual([]);
    expect(slots.admits(unproven('slow-0', 'mallory'))).toBe(true);
  });

  it('a webhook with two requests left keeps one counted; one seen unproven since is full at one', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    slots.take(prompt('a'));
    slots.take(prompt('a'));
    slots.giveBack(prompt('a'));
    expect(slots.exclusions().webhooks).toEqual([]);
    expect(slots.admits(unproven('a'))).toBe(false);
    expect(slots.admits(prompt('a'))).toBe(true);
  });

  it('a full webhook given one back has room for one, and is full again once it takes it', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    expect(fill(slots, prompt('a', 'ann'))).toBe(4);
    slots.giveBack(prompt('a', 'ann'));
    expect(slots.exclusions().webhooks).toEqual([]);
    expect(fill(slots, prompt('a', 'ann'))).toBe(1);
    expect(slots.exclusions().webhooks).toEqual(['a']);
    // The account's count went down and up with it: four more of Ann's fit, not five.
    expect(fill(slots, prompt('b', 'ann'))).toBe(4);
  });

  it('giving back a prompt receiver’s request frees no slot of the unproven share', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    for (let i = 0; i < 12; i++) slots.take(unproven(`slow-${i}`));
    slots.take(prompt('fast'));
    slots.giveBack(prompt('fast'));
    expect(slots.exclusions()).toMatchObject({ free: 4, promptOnly: true });
    expect(slots.admits(unproven('slow-new'))).toBe(false);
  });

  it('a copy counts on its own: what it takes is not taken from the original', () => {
    const slots = deliverySlots(DEFAULT_DELIVERY_SETTINGS);
    slots.take(prompt('a'));
    const trial = slots.copy();
    fill(trial, prompt('a'));
    expect(trial.inFlight()).toBe(4);
    expect(slots.inFlight()).toBe(1);
    expect(slots.admits(prompt('a'))).toBe(true);
  });
});

describe('the back-off of a receiver that timed out', () => {
  const S = 1000;

  it('10 s at first, then as long again as it has been failing, up to 10 min', () => {
    expect([MIN_BACKOFF_MS, MAX_BACKOFF_MS]).toEqual([10 * S, 600 * S]);
    expect([0, 5 * S, 10 * S, 25 * S, 599 * S, 600 * S, 3600 * S].map(backoffMs)).toEqual([
      10 * S,
      10 * S,
      10 * S,
      25 * S,
      599 * S,
      600 * S,
      600 * S,
    ]);
  });

  it('never ends earlier than a back-off already running', () => {
    expect(backoffUntil(100 * S, 70 * S, undefined)).toBe(130 * S);
    expect(backoffUntil(100 * S, 70 * S, 200 * S)).toBe(200 * S);
    expect(backoffUntil(100 * S, 100 * S, 50 * S)).toBe(110 * S);
  });
});

describe('signing', () => {
  // Key: base64 of the bytes 0..31; the expected value is HMAC-SHA256 over "id.ts.body", computed once by openssl:
  // printf 'msg_1.1700000000.{"a":1}' | openssl dgst -sha256 -mac HMAC -macopt hexkey:000102…1f -binary | base64
  const SECRET = `whsec_${Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64')}`;

  it('v1,<base64 HMAC-SHA256 of id.timestamp.body> keyed with the decoded secret', () => {
    expect(signatureHeader([SECRET], 'msg_1', 1700000000, '{"a":1}')).toBe('v1,AMaOha7DUT/0J0JMycRuYOBSvbx3WtwLd2khXXbaVj4=');
  });

  it('two secrets sign while the rotation overlap lasts, space separated, the current first', () => {
    const webhook = { secret: 'whsec_bmV3', previous_secret: 'whsec_b2xk', previous_secret_until: '2026-03-03T08:00:00.000Z' };
    expect(signingSecrets(webhook, Date.parse('2026-03-03T07:59:59.999Z'))).toEqual(['whsec_bmV3', 'whsec_b2xk']);
    expect(signingSecrets(webhook, Date.parse('2026-03-03T08:00:00.000Z'))).toEqual(['whsec_bmV3']);
    expect(signingSecrets({ ...webhook, previous_secret: null, previous_secret_until: null }, 0)).toEqual(['whsec_bmV3']);
    expect(signatureHeader(['whsec_bmV3', 'whsec_b2xk'], 'm', 1, 'b').split(' ')).toHaveLength(2);
  });
});
