// Fuzzes every endpoint of the registry in process, on SQLite and on
// PostgreSQL: API-shaped requests with real, random and hostile path
// parameters, queries, bodies, tokens and headers, plus malformed HTTP sent
// over a plain socket. Every answer must keep four rules (support/fuzz-check.ts):
// never a 5xx; always the envelope with X-Request-Id equal to its request_id;
// a refused request leaves every table as it was; a body not labelled JSON is
// never acted on.
//
// The seed is fixed, so CI draws the same cases every time; a failure prints
// the seed and path to replay it. From packages/http:
//
//   FUZZ_RUNS=100000 npx vitest run test/fuzz-endpoints.property.test.ts      100,000 cases on each database
//                                                                             (two cores: ~8 min SQLite, ~11 min PostgreSQL;
//                                                                             add -t sqlite or -t postgres for one)
//   FUZZ_SEED=123 npx vitest run test/fuzz-endpoints.property.test.ts         other cases than CI's
//   FUZZ_SURVEY=1 npx vitest run test/fuzz-endpoints.property.test.ts         every distinct failure with an example,
//                                                                             and what the cases reached, not only the first
//
// The database is not reset between cases (a fresh one per case would cost
// more than the request; a fresh app comes every 1000 cases), so a case may
// depend on what earlier cases wrote: a shrunk counterexample is still a
// request that failed, but replaying it alone may not fail again.

import type { Operation } from '@schedule/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuzzCase } from './support/fuzz-case.js';
import type { Verdict } from './support/fuzz-check.js';
import { fuzzProperty, violationKinds } from './support/fuzz-run.js';
import { type FuzzSession, startFuzzSession } from './support/fuzz-session.js';
import { answersWithoutData, PLANTED_FAULT, throwsOnOddUid, writesThenRefuses } from './support/planted-faults.js';
import type { TestDatabase } from './support/test-app.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20260302);
/** Sized so that the file stays well under 40 s on two cores; FUZZ_RUNS sets both. */
const RUNS: Record<TestDatabase, number> = {
  sqlite: Number(process.env.FUZZ_RUNS ?? 1500),
  postgres: Number(process.env.FUZZ_RUNS ?? 500),
};
const SURVEY = process.env.FUZZ_SURVEY === '1';
/** Time for the cases on the slower database, with room for fast-check to shrink a failure. */
const budgetMs = (runs: number) => 60_000 + runs * 30;

/** What an unexpected fault was, from the app's log: the one thing a 500's envelope rightly hides. */
function causeOf(session: FuzzSession, verdict: Verdict): string {
  const requestId = verdict.answer.response?.headers.get('x-request-id');
  const line = session.app.logged.find((l) => l.request_id === requestId && l.err !== undefined);
  return line?.err instanceof Error ? ` (cause: ${line.err.message})` : '';
}

/** Runs every case without stopping and prints each distinct violation once: how often, on which endpoints, an example. */
async function survey(session: FuzzSession, database: TestDatabase, parameters: fc.Parameters<[FuzzCase]>): Promise<string[]> {
  const found = new Map<string, { count: number; where: Map<string, number>; example: string }>();
  const reached = new Map<string, number>();
  const tally = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const seen = (fuzzCase: FuzzCase, verdict: Verdict) => {
    const endpoint = fuzzCase.label.split(' ').slice(0, 2).join(' ');
    tally(reached, `${endpoint} ${verdict.answer.response?.status ?? verdict.answer.ending} ${verdict.code ?? ''}`);
    for (const [i, kind] of violationKinds(fuzzCase, verdict).entries()) {
      const key = kind + causeOf(session, verdict);
      const entry = found.get(key) ?? {
        count: 0,
        where: new Map(),
        example: `${verdict.violations[i]!.detail}\n${fc.stringify(fuzzCase)}`,
      };
      entry.count++;
      tally(entry.where, endpoint);
      found.set(key, entry);
    }
  };
  await fc.assert(fuzzProperty(session, { seen, tolerate: true }), parameters);
  const counted = (counts: Map<string, number>) => [...counts].sort().map(([key, count]) => `${key} ×${count}`);
  console.log(`What the cases reached on ${database}:\n  ${counted(reached).join('\n  ')}`);
  const kinds = [...found].sort(([a], [b]) => a.localeCompare(b));
  const shown = kinds.map(([key, { count, where, example }]) => `${count}x ${key}\n  seen on: ${counted(where).join(', ')}\n${example}\n`);
  console.log(`${kinds.length} kinds of violation on ${database}:\n\n${shown.join('\n')}`);
  return kinds.map(([key]) => key);
}

describe.each(['sqlite', 'postgres'] as const)('every endpoint on %s, fuzzed', (database) => {
  let session: FuzzSession;

  beforeAll(async () => {
    session = await startFuzzSession(database);
  }, 60_000);

  afterAll(() => session?.close());

  it(
    'answers every request with the envelope and never a 5xx, and a refused request changes nothing',
    async () => {
      const parameters = { numRuns: RUNS[database], seed: SEED, interruptAfterTimeLimit: budgetMs(RUNS[database]) - 10_000 };
      if (SURVEY) expect(await survey(session, database, parameters)).toEqual([]);
      else await fc.assert(fuzzProperty(session), parameters);
    },
    budgetMs(RUNS[database]),
  );
});

describe('the fuzzer, given an app with a planted fault', () => {
  /**
   * Runs the property on the same generators, aimed at the planted operation
   * only: once noting every violation without stopping, to see the plant's own
   * among them (a real bug may come first), then as CI does, where it must fail.
   */
  async function fuzzPlanted(plant: Operation) {
    const session = await startFuzzSession('sqlite', plant);
    try {
      const flagged: string[] = [];
      const seen = (_: FuzzCase, verdict: Verdict) => {
        for (const v of verdict.violations) flagged.push(`${v.property}: ${v.detail}`);
      };
      await fc.assert(fuzzProperty(session, { seen, tolerate: true }), { numRuns: 300, seed: SEED });
      const strict = await fc.check(fuzzProperty(session), { numRuns: 300, seed: SEED });
      return { flagged, failed: strict.failed, logged: session.app.logged };
    } finally {
      await session.close();
    }
  }

  it('finds the 500 of an operation that throws a plain Error on a uid that is not a UUID', async () => {
    const { flagged, failed, logged } = await fuzzPlanted(throwsOnOddUid);
    expect(flagged).toContainEqual('no-5xx: status 500 internal_error');
    expect(logged.some((line) => line.err instanceof Error && line.err.message === PLANTED_FAULT)).toBe(true);
    expect(failed).toBe(true);
  }, 60_000);

  it('finds a refused request that left a row behind', async () => {
    const { flagged, failed } = await fuzzPlanted(writesThenRefuses);
    expect(flagged).toContainEqual(expect.stringMatching(/^refusal-unchanged: status 400 changed outbox/));
    expect(failed).toBe(true);
  }, 60_000);

  it('finds an answer whose envelope lost its data', async () => {
    const { flagged, failed } = await fuzzPlanted(answersWithoutData);
    expect(flagged).toContainEqual('envelope: status 200: body keys ["meta"] are neither [error] nor [data, meta]');
    expect(failed).toBe(true);
  }, 60_000);
});
