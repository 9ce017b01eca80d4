import type { Operation } from '@schedule/core';
import fc from 'fast-check';
import { type BodyPlan, bodyOf, bodyPlan, chunk, seeds } from './fuzz-bodies.js';
import { assembleCase, type FuzzCase, looseEncode, percentEncode } from './fuzz-case.js';
import { contentType, extraHeaders, idempotencyKey, ifMatch, tokenHeader } from './fuzz-headers.js';
import { QUERY_TEMPLATES, type Seeds } from './fuzz-templates.js';
import { extremeNumber, fuzzJson, fuzzString, jsonText, mostly, nastyString, nearValid } from './fuzz-values.js';
import { TOKEN } from './fuzz-workspace.js';

// Requests shaped like API calls: an operation of the registry with its path
// parameters filled in (real, random or garbage), a query, a body, a token
// and the two headers the spec gives meaning to, each drawn from valid,
// near-valid and hostile values. Every part is drawn independently and the
// request assembled afterwards, so that fast-check can shrink each part.

/** What the generators need to know of the app under test. */
export interface FuzzContext {
  readonly operations: readonly Operation[];
  /**
   * Uids that exist, for paths under /v1/bookings and /v1/series. The runner
   * adds what the cases create (see fuzz-run.ts), so that later cases act on
   * live resources rather than only on ones earlier cases ended.
   */
  readonly bookings: string[];
  readonly series: string[];
}

/** The ids sequentialIds gives out: the rows and requests of this run are among the first thousands. */
const sequentialId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

type SegmentPlan = { readonly real: number } | { readonly segment: string };

const segment: fc.Arbitrary<SegmentPlan> = fc.oneof(
  { weight: 6, arbitrary: fc.nat().map((real) => ({ real })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 4000 }).map((n) => ({ segment: sequentialId(n) })) },
  { weight: 1, arbitrary: fc.uuid().map((segment) => ({ segment })) },
  { weight: 2, arbitrary: nearValid('f2000000-0000-4000-8000-000000000001').map((s) => ({ segment: percentEncode(s) })) },
  { weight: 2, arbitrary: fuzzString.map((s) => ({ segment: percentEncode(s.slice(0, 4000)) })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('%00', '%2F', '%2e%2e', '..', '.', '%', '%zz', '%E0%A4%A', '%FF', '%C0%AF', 'null', '%20', ';x=1', 'a'.repeat(3000))
      .map((s) => ({ segment: s })),
  },
);

const OTHER_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND', 'QUERY', 'PURGE'] as const;

const pathTwist = mostly(
  fc.constant(''),
  20,
  fc.constantFrom('/', '//', '/.', '/..', '%2F', '#frag', ';x=1', 'UPPER', 'absolute', 'prefix//'),
);

const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fuzzString.map((s) => s.slice(0, 12_000)) },
  { weight: 1, arbitrary: extremeNumber.map(jsonText) },
  { weight: 1, arbitrary: fuzzJson.map((v) => jsonText(v).slice(0, 2000)) },
);

interface QueryEdit {
  readonly action: 'drop' | 'set' | 'add' | 'repeat';
  readonly at: number;
  readonly key: string;
  readonly value: string;
}

type QueryPlan = {
  readonly fromTemplate: boolean;
  readonly seeds: Seeds;
  readonly edits: readonly QueryEdit[];
  readonly encoding: 'encoded' | 'loose' | 'broken';
};

const queryPlan: fc.Arbitrary<QueryPlan> = fc.record({
  fromTemplate: mostly(fc.constant(true), 4, fc.constant(false)),
  seeds,
  edits: fc.array(
    fc.record({
      action: fc.constantFrom('drop', 'set', 'add', 'repeat') as fc.Arbitrary<QueryEdit['action']>,
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom('x', '', 'limit[]', 'a b', '__proto__', 'start', 'cursor'), nastyString),
      value: queryValue,
    }),
    { maxLength: 3 },
  ),
  encoding: mostly(fc.constant('encoded' as const), 6, fc.constant('loose' as const), fc.constant('broken' as const)),
});

function queryOf(plan: QueryPlan, operation: Operation): string {
  const fromTemplate = plan.fromTemplate && operation.method === 'GET' ? (QUERY_TEMPLATES[operation.name]?.(plan.seeds) ?? {}) : {};
  const pairs: [string, string][] = Object.entries(fromTemplate);
  const known = [...Object.keys(operation.schemas.input?.shape ?? {}), ...pairs.map(([k]) => k)];
  for (const edit of plan.edits) {
    const at = pairs.length === 0 ? -1 : edit.at % pairs.length;
    const key = known.length > 0 && edit.at % 3 !== 0 ? known[edit.at % known.length]! : edit.key;
    if (edit.action === 'drop' && at >= 0) pairs.splice(at, 1);
    else if (edit.action === 'set' && at >= 0) pairs[at] = [pairs[at]![0], edit.value];
    else if (edit.action === 'repeat' && at >= 0) pairs.push([pairs[at]![0], edit.value]);
    else pairs.push([key, edit.value]);
  }
  if (pairs.length === 0) return '';
  const encode = plan.encoding === 'loose' ? looseEncode : percentEncode;
  const broken = plan.encoding === 'broken' ? '%' : '';
  return `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}${broken}`).join('&')}`;
}

/** The request target: the operation's path with its parameters, twisted, and its query. */
function targetOf(context: FuzzContext, operation: Operation, segments: readonly SegmentPlan[], twist: string, query: string): string {
  const real = operation.path.startsWith('/v1/series') ? context.series : operation.path.startsWith('/v1/bookings') ? context.bookings : [];
  let i = 0;
  let path = operation.path.replace(/:[a-z_]+/g, () => {
    const plan = segments[i++ % segments.length]!;
    if ('segment' in plan) return plan.segment;
    return real.length > 0 ? real[plan.real % real.length]! : sequentialId(1 + (plan.real % 4000));
  });
  if (twist === 'UPPER') path = path.toUpperCase();
  else if (twist === 'absolute') path = `http://localhost${path}`;
  else if (twist === 'prefix//') path = `/${path}`;
  else path += twist;
  return path + query;
}

interface ApiPlan {
  readonly freshKey: string;
  readonly segments: readonly SegmentPlan[];
  readonly method: string | null;
  readonly twist: string;
  readonly query: QueryPlan;
  readonly body: BodyPlan;
  readonly authorization: readonly string[];
  readonly contentType: string | null;
  readonly idempotencyKey: readonly string[];
  readonly ifMatch: readonly string[];
  readonly extra: readonly (readonly [string, string])[];
}

/**
 * The plan with everything but the body and query made valid: a real
 * resource, the owner's token, JSON, a fresh key, `If-Match: *` where one is
 * needed. Independent draws would rarely all be valid at once, and then the
 * mutated bodies would seldom get past the front door to the code behind it.
 */
function cleaned(plan: ApiPlan, operation: Operation): ApiPlan {
  const body: BodyPlan = plan.body.kind === 'template' ? plan.body : { kind: 'template', seeds: plan.query.seeds, edits: [] };
  return {
    ...plan,
    segments: plan.segments.map((s) => ('real' in s ? s : { real: s.segment.length })),
    method: null,
    twist: '',
    body: operation.method === 'GET' ? { kind: 'none' } : body,
    authorization: [`Bearer ${TOKEN.owner}`],
    contentType: 'application/json',
    idempotencyKey: operation.idempotencyKey === 'none' ? [] : [`fz-${plan.freshKey}`],
    ifMatch: operation.ifMatch === 'none' ? [] : ['*'],
    extra: [],
  };
}

/** Requests shaped like calls of `context.operations`. */
export function apiCases(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      clean: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 2, arbitrary: fc.constant(true) }),
      freshKey: fc.uuid(),
      operation: fc.nat(context.operations.length - 1),
      segments: fc.array(segment, { minLength: 1, maxLength: 2 }),
      method: mostly(fc.constant(null), 12, fc.constantFrom(...OTHER_METHODS)),
      twist: pathTwist,
      query: queryPlan,
      body: bodyPlan,
      authorization: tokenHeader,
      contentType,
      idempotencyKey,
      ifMatch,
      extra: extraHeaders,
    })
    .map((drawn) => {
      const operation = context.operations[drawn.operation]!;
      const plan = drawn.clean ? cleaned(drawn, operation) : drawn;
      const method = plan.method ?? operation.method;
      const target = targetOf(context, operation, plan.segments, plan.twist, queryOf(plan.query, operation));
      const body = bodyOf(plan.body, operation);
      const chunked = plan.extra.some(([name]) => name === 'Transfer-Encoding');
      const headers: (readonly [string, string])[] = [['Host', 'localhost']];
      for (const value of plan.authorization) headers.push(['Authorization', value]);
      if (plan.contentType !== null) headers.push(['Content-Type', plan.contentType]);
      for (const value of plan.idempotencyKey) headers.push(['Idempotency-Key', value]);
      for (const value of plan.ifMatch) headers.push(['If-Match', value]);
      headers.push(...plan.extra);
      return assembleCase({
        label: `api ${operation.name} ${method} body:${plan.body.kind}${drawn.clean ? ' clean' : ''}`,
        method,
        requestLine: `${method} ${target} HTTP/1.1`,
        headers,
        body: chunked ? chunk(body) : body,
      });
    });
}
