import type { Writable } from 'node:stream';

/** `schedule openapi`: the HTTP API's OpenAPI document, exactly as `GET /v1/openapi.json` serves it. */
export async function printOpenApi(out: Writable): Promise<void> {
  const [{ operations }, { openApiText }] = await Promise.all([import('@schedule/core'), import('@schedule/http')]);
  out.write(openApiText(operations));
}
