import { describe, expect, it } from 'vitest';
import { loadDriver, MissingDriver } from '../src/optional-driver.js';

// Issue 13: pg, ioredis, ical.js and undici are optional peers of core. A
// driver that is not installed is named, with what it is for; the packaging
// test shows it from an install of core alone.

// Through a variable, so that neither the compiler nor the bundler looks for it.
const ABSENT = 'schedule-no-such-driver';
const importAbsent = () => import(/* @vite-ignore */ ABSENT);

describe('loadDriver', () => {
  it('a driver that is not installed: MissingDriver naming the package and what it is for', async () => {
    const loading = loadDriver(importAbsent, { packages: ['pg', ABSENT], usedFor: 'use a postgres:// database' });
    await expect(loading).rejects.toBeInstanceOf(MissingDriver);
    await expect(loading).rejects.toMatchObject({
      packageName: ABSENT,
      message: `install ${ABSENT} to use a postgres:// database (npm install ${ABSENT})`,
    });
  });

  it('a package missing under the driver (one of its own dependencies) is not taken for the driver', async () => {
    const loading = loadDriver(importAbsent, { packages: ['schedule-no-such'], usedFor: 'anything' });
    await expect(loading).rejects.not.toBeInstanceOf(MissingDriver);
  });

  it('any other failure passes unchanged, and an installed driver loads', async () => {
    const broken = new Error('the driver threw while loading');
    await expect(loadDriver(() => Promise.reject(broken), { packages: ['pg'], usedFor: 'anything' })).rejects.toBe(broken);
    const pg = await loadDriver(() => import('pg'), { packages: ['pg'], usedFor: 'use a postgres:// database' });
    expect(typeof pg.default.Pool).toBe('function');
  });
});
