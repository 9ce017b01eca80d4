import fc from 'fast-check';
import { apiCases, type FuzzContext } from './fuzz-api-cases.js';
import type { FuzzCase } from './fuzz-case.js';
import { checkCase, type Verdict } from './fuzz-check.js';
import { rawCases } from './fuzz-raw-cases.js';
import type { FuzzSession } from './fuzz-session.js';

/** Every request the fuzzer makes: mostly API calls, one in ten an oddity of HTTP itself. */
export function fuzzCases(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  return fc.oneof({ weight: 9, arbitrary: apiCases(context) }, { weight: 1, arbitrary: rawCases(context) });
}

/** Cases per database: past this, a fresh app keeps the per-case digest of every table cheap. */
const RENEW_EVERY = 1000;

/** How many created resources the runner remembers of each kind; the newest replace the oldest. */
const REMEMBERED = 40;

function remember(pool: string[], uid: unknown, keep: number): void {
  if (typeof uid !== 'string' || pool.includes(uid)) return;
  pool.push(uid);
  // The first `keep` entries are the fixture's own resources, always kept.
  if (pool.length > keep + REMEMBERED) pool.splice(keep, 1);
}

/** Adds the booking and series a successful create answered with to the context's pools. */
function learn(context: FuzzContext, verdict: Verdict, keep: { bookings: number; series: number }): void {
  const { response } = verdict.answer;
  if (response?.status !== 201) return;
  try {
    const { data } = JSON.parse(response.body.toString('utf8')) as {
      data: { uid?: unknown; series?: { uid?: unknown }; occurrences?: { uid?: unknown }[] };
    };
    remember(context.bookings, data.uid, keep.bookings);
    remember(context.series, data.series?.uid, keep.series);
    for (const occurrence of data.occurrences ?? []) remember(context.bookings, occurrence.uid, keep.bookings);
  } catch {
    // Not the envelope: the envelope property reports that.
  }
}

/**
 * The property over every case `fuzzCases(context)` draws: each keeps every
 * rule of fuzz-check.ts. `seen` hears each verdict; with `tolerate`, a
 * violation is only reported to it (the survey mode, which lists every
 * distinct failure instead of stopping at the first).
 */
export function fuzzProperty(
  session: FuzzSession,
  options: { seen?: (fuzzCase: FuzzCase, verdict: Verdict) => void; tolerate?: boolean } = {},
): fc.IAsyncPropertyWithHooks<[FuzzCase]> {
  const { target, context } = session;
  const keep = { bookings: context.bookings.length, series: context.series.length };
  let cases = 0;
  return fc.asyncProperty(fuzzCases(context), async (fuzzCase) => {
    if (++cases % RENEW_EVERY === 0) await session.renew();
    const verdict = await checkCase(target, fuzzCase);
    learn(context, verdict, keep);
    options.seen?.(fuzzCase, verdict);
    if (verdict.violations.length > 0 && !options.tolerate) {
      throw new Error(verdict.violations.map((v) => `${v.property}: ${v.detail}`).join('\n'));
    }
  });
}

/**
 * The kind of each violation, to tell distinct failures apart: which property,
 * what status and code, and for an oddity of HTTP which one (an API case's
 * endpoint is listed beside it, as one bug often shows on every endpoint).
 */
export function violationKinds(fuzzCase: FuzzCase, verdict: Verdict): string[] {
  const status = verdict.answer.response?.status ?? verdict.answer.ending;
  const [generator, kind] = fuzzCase.label.split(' ');
  return verdict.violations.map((v) => `${v.property} | ${status} ${verdict.code ?? '-'} | ${generator === 'raw' ? `raw ${kind}` : 'api'}`);
}
