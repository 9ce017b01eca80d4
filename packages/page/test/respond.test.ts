import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { encodingFor } from '../src/respond.js';

// encodingFor: brotli, then gzip, then none, by what Accept-Encoding accepts (q=0 is a refusal).

const accepting = (value?: string) => encodingFor({ headers: value === undefined ? {} : { 'accept-encoding': value } } as IncomingMessage);

describe('encodingFor', () => {
  it('prefers brotli, then gzip, whatever order they are listed in', () => {
    expect(accepting('gzip, deflate, br, zstd')).toBe('br');
    expect(accepting('br;q=0.1, gzip')).toBe('br');
    expect(accepting('gzip, deflate')).toBe('gzip');
  });

  it('sends it plain when neither is accepted, or nothing is said', () => {
    expect(accepting()).toBe('identity');
    expect(accepting('')).toBe('identity');
    expect(accepting('deflate, zstd')).toBe('identity');
    expect(accepting('*')).toBe('identity');
  });

  it('honours q=0 as a refusal, with or without spaces', () => {
    expect(accepting('br;q=0, gzip')).toBe('gzip');
    expect(accepting('br; q=0 , gzip;q=0')).toBe('identity');
    expect(accepting('br;q=0.0, gzip;q=0.5')).toBe('gzip');
    expect(accepting('br;q=0.001')).toBe('br');
  });

  it('reads names in any case and around spaces', () => {
    expect(accepting(' BR ')).toBe('br');
    expect(accepting('GZip')).toBe('gzip');
  });

  it('reads only the first 256 characters of the header', () => {
    const padding = 'x'.repeat(250);
    expect(accepting(`${padding}, br`)).toBe('br');
    expect(accepting(`${padding}xxxx, br`)).toBe('identity');
  });
});
