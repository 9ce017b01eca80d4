import { readFileSync } from 'node:fs';
import { ERROR_CODES, manualClock, type Operation, operations } from '@schedule/core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HTTP_STATUS, OPENAPI_PATH, openApiDocument, openApiText } from '../src/index.js';
import { httpErrorsOf } from '../src/openapi/http-errors.js';
import { sampleOf } from './support/exposition.js';
import { fuzzWorkspace, T0 } from './support/fuzz-workspace.js';
import { startTestApp, type TestApp } from './support/test-app.js';

// Issue 14, part 1: the OpenAPI document is generated from the operation
// registry, committed as docs/openapi.json, and served at GET /v1/openapi.json.

const COMMITTED = new URL('../../../docs/openapi.json', import.meta.url);

type Json = Record<string, any>;

/** The codes an answer lists, following a `$ref` to a shared answer. */
function codesOf(document: Json, response: Json): string[] {
  const resolved = response.$ref ? document.components.responses[response.$ref.split('/').at(-1)] : response;
  return resolved.content['application/json'].schema.properties.error.properties.code.enum;
}

describe('the OpenAPI document', () => {
  it('docs/openapi.json is what the operations give today: a changed operation without `npm run openapi` fails here', () => {
    const committed = readFileSync(COMMITTED, 'utf8');
    // toBe rather than toEqual of parsed JSON: key order and formatting are part of a reviewable diff.
    expect(committed === openApiText(operations), 'docs/openapi.json is out of date: run `npm run openapi` and commit it').toBe(true);
  });

  it('is deterministic, and a changed schema changes it', () => {
    expect(openApiText(operations)).toBe(openApiText(operations));
    const whoami = operations.find((operation) => operation.name === 'whoami')!;
    const output = z.object({ ...(whoami.schemas.output as z.ZodObject).shape, extra: z.string() });
    const widened = operations.map((operation) =>
      operation === whoami ? { ...whoami, schemas: { ...whoami.schemas, output } } : operation,
    );
    expect(openApiText(widened as readonly Operation[])).not.toBe(openApiText(operations));
  });

  it('has every operation of the registry at its method and path, with its scope and every error code it can answer', () => {
    const document = openApiDocument(operations) as Json;
    for (const operation of operations as readonly Operation[]) {
      const template = operation.path.replace(/:([a-z_]+)/g, '{$1}');
      const documented = document.paths[template]?.[operation.method.toLowerCase()];
      expect(documented?.operationId, operation.name).toBe(operation.name);
      expect(documented.security).toEqual(
        operation.scope === null ? [{ bearerToken: [] }] : [{ bearerToken: [operation.scope] }, { oauth2: [operation.scope] }],
      );
      const statuses = Object.keys(documented.responses);
      const errors = statuses.filter((status) => !status.startsWith('2'));
      const listed = errors.flatMap((status) => codesOf(document, documented.responses[status]));
      expect(new Set(listed), operation.name).toEqual(new Set(httpErrorsOf(operation)));
      for (const status of errors) {
        for (const code of codesOf(document, documented.responses[status]))
          expect(HTTP_STATUS[code as keyof typeof HTTP_STATUS]).toBe(Number(status));
      }
      const parameters = (documented.parameters ?? []).map((p: Json) =>
        p.$ref ? document.components.parameters[p.$ref.split('/').at(-1)] : p,
      );
      const header = (name: string) => parameters.find((p: Json) => p.in === 'header' && p.name === name);
      expect(header('Idempotency-Key')?.required ?? (header('Idempotency-Key') ? false : 'none'), operation.name).toBe(
        operation.idempotencyKey === 'none' ? 'none' : operation.idempotencyKey === 'required',
      );
      expect(header('If-Match')?.required ?? (header('If-Match') ? false : 'none'), operation.name).toBe(
        operation.ifMatch === 'none' ? 'none' : operation.ifMatch === 'required',
      );
    }
  });

  it('names every status an error code has, in words that do not change with Node', () => {
    const document = openApiDocument(operations) as Json;
    const descriptions = JSON.stringify(document);
    for (const code of ERROR_CODES) expect(descriptions, code).toContain(`\`${code}\``);
    expect(descriptions).not.toMatch(/"description":"Error\./);
  });
});

describe('GET /v1/openapi.json', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('serves the document without a token or a rate limit, and HEAD its headers; both are counted in the metrics', async () => {
    app = await startTestApp({ workspace: fuzzWorkspace(), clock: manualClock(T0), metrics: {} });
    const url = `${app.server.url}${OPENAPI_PATH}`;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(await res.text()).toBe(openApiText(operations));

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(openApiText(operations))));
    expect(await head.text()).toBe('');

    const metrics = await (await fetch(`${app.server.url}/metrics`)).text();
    expect(sampleOf(metrics, 'schedule_http_requests_total', { route: `GET ${OPENAPI_PATH}`, status: '200' })).toBe(2);
  });
});
