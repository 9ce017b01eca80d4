import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Issue 14: every black-box HTTP response is checked against the committed
// OpenAPI document (docs/openapi.json, which packages/http/test/openapi.test.ts
// keeps equal to the generated one). The answer's status must be documented
// for the operation its method and path reach, its body must match that
// status's schema, the headers the document requires must be there, and no
// header of the API's own may come where the document does not say it can.
// A response the document does not describe throws, failing the test that
// made it. Ajv validates: OpenAPI 3.1 schemas are JSON Schema 2020-12.
// /metrics (Prometheus text) and /mcp (JSON-RPC) have contracts of their
// own and are only counted as skipped; any other path the document does not
// list must be answered as its `x-unrouted-responses` say.

const here = dirname(fileURLToPath(import.meta.url));
const DOCUMENT_FILE = resolve(here, '../../docs/openapi.json');
/** Where each test file adds how many answers it checked; scripts/test-summary.mjs adds them up. */
export const CONTRACT_RESULTS_DIR = resolve(here, '../../.test-results/openapi');
const ID = 'https://schedule.invalid/openapi.json';

/** Paths the server answers that are not part of the document. */
const OUTSIDE = ['/metrics', '/mcp'];

/** The headers the API itself sets: one that comes where the document does not list it is undocumented. */
const API_HEADERS = [
  'etag',
  'location',
  'retry-after',
  'idempotent-replayed',
  'www-authenticate',
  'allow',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

type Json = Record<string, any>;

interface Route {
  readonly template: string;
  readonly pattern: RegExp;
  /** Operations the router serves ignore a trailing slash; the probes and this document do not. */
  readonly routed: boolean;
  readonly methods: Json;
}

interface Contract {
  readonly document: Json;
  readonly routes: readonly Route[];
  readonly validators: Map<string, ValidateFunction>;
  readonly ajv: Ajv2020;
}

let contract: Contract | undefined;

function loadContract(): Contract {
  const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...document, $id: ID });
  const routes = Object.entries(document.paths as Json)
    .map(([template, methods]) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      routed: Object.values(methods as Json).some((operation: Json) => operation.security?.length !== 0),
      methods: methods as Json,
    }))
    // A static path wins over a template that would also match it, as in the router.
    .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  return { document, routes, validators: new Map(), ajv };
}

/** A JSON pointer segment (RFC 6901). */
const pointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** What a `$ref` into this document points at, and the pointer it names. */
function resolveRef(document: Json, node: Json, at: string): { node: Json; at: string } {
  if (typeof node.$ref !== 'string') return { node, at };
  const target = (node.$ref as string).slice(1);
  const found = target
    .split('/')
    .slice(1)
    .reduce((value: Json, part) => value[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return { node: found, at: target };
}

let validated = 0;
let skipped = 0;

/** One exchange as a test helper saw it. */
export interface Exchange {
  readonly method: string;
  /** The request target: path and query. */
  readonly target: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body; undefined when it is not JSON. */
  readonly body: unknown;
}

/** What the document says this method and path can be answered: the operation's answers, or those of paths no operation serves. */
function answersFor(c: Contract, method: string, pathname: string): { responses: Json; at: string; name: string } | undefined {
  const verb = (method === 'HEAD' ? 'GET' : method).toLowerCase();
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const route = c.routes.find((r) => r.pattern.test(pathname)) ?? c.routes.find((r) => r.routed && r.pattern.test(trimmed));
  const operation = route?.methods[verb];
  if (route && operation) {
    return { responses: operation.responses, at: `/paths/${pointer(route.template)}/${verb}/responses`, name: operation.operationId };
  }
  if (OUTSIDE.some((path) => pathname === path || pathname.startsWith(`${path}/`))) return undefined;
  return { responses: c.document['x-unrouted-responses'], at: '/x-unrouted-responses', name: `unrouted ${method} ${pathname}` };
}

function validatorFor(c: Contract, at: string): ValidateFunction {
  let validate = c.validators.get(at);
  if (!validate) {
    validate = c.ajv.compile({ $ref: `${ID}#${at}` });
    c.validators.set(at, validate);
  }
  return validate;
}

/** A header's value as its schema types it: the integer headers are sent as digits. */
function headerValue(schema: Json, value: string): unknown {
  return schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
}

/**
 * Checks one answer against docs/openapi.json; throws, naming what the
 * document does not describe. Answers of paths the document leaves out, and
 * of a server that is not the HTTP API (`apiServer` false: `schedule mcp
 * --http` serves only /mcp), are counted as skipped.
 */
export function checkAgainstContract(exchange: Exchange, apiServer = true): void {
  contract ??= loadContract();
  const c = contract;
  const { pathname } = new URL(exchange.target, 'http://contract.invalid');
  const answers = apiServer ? answersFor(c, exchange.method, pathname) : undefined;
  if (!answers) {
    skipped++;
    return;
  }
  const where = `${exchange.method} ${exchange.target} → ${exchange.status} (${answers.name})`;
  const fail = (problem: string): never => {
    throw new Error(`docs/openapi.json does not describe ${where}: ${problem}\n${exchange.text.slice(0, 500)}`);
  };
  const status = String(exchange.status);
  const key = status in answers.responses ? status : `${status[0]}XX` in answers.responses ? `${status[0]}XX` : undefined;
  if (key === undefined) fail(`status ${status} is not among ${Object.keys(answers.responses).join(', ')}`);
  const { node: response, at } = resolveRef(c.document, answers.responses[key!], `${answers.at}/${key}`);

  const documented = new Set<string>();
  for (const [name, declared] of Object.entries((response.headers ?? {}) as Json)) {
    const { node: header, at: headerAt } = resolveRef(c.document, declared, `${at}/headers/${pointer(name)}`);
    documented.add(name.toLowerCase());
    const value = exchange.headers.get(name);
    if (value === null) {
      if (header.required) fail(`the required header ${name} is missing`);
      continue;
    }
    const validate = validatorFor(c, `${headerAt}/schema`);
    if (!validate(headerValue(header.schema, value))) fail(`header ${name}: ${value} ${c.ajv.errorsText(validate.errors)}`);
  }
  for (const name of API_HEADERS) {
    if (exchange.headers.has(name) && !documented.has(name)) fail(`it carries ${name}, which the document does not list for this answer`);
  }

  const media = response.content?.['application/json'];
  if (exchange.method === 'HEAD' || !media) {
    if (exchange.text !== '') fail('it has a body where the document describes none');
  } else {
    if (!exchange.headers.get('content-type')?.startsWith('application/json'))
      fail(`Content-Type is ${exchange.headers.get('content-type')}`);
    if (exchange.body === undefined) fail('the body is not JSON');
    const validate = validatorFor(c, `${at}/content/application~1json/schema`);
    if (!validate(exchange.body)) fail(c.ajv.errorsText(validate.errors, { dataVar: 'body' }));
  }
  validated++;
}

/**
 * Adds this test file's counts to the run's record and starts again (the
 * setup file calls it after each file); scripts/test-summary.mjs prints the total.
 */
export function recordContractCounts(): void {
  if (validated === 0 && skipped === 0) return;
  mkdirSync(CONTRACT_RESULTS_DIR, { recursive: true });
  appendFileSync(resolve(CONTRACT_RESULTS_DIR, `counts-${process.pid}.jsonl`), `${JSON.stringify({ validated, skipped })}\n`);
  validated = 0;
  skipped = 0;
}
