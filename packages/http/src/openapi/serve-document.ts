import type { ServerResponse } from 'node:http';
import type { Operation } from '@schedule/core';
import { openApiText } from './openapi-document.js';

/**
 * Answers `GET /v1/openapi.json` (and `HEAD`, which Node sends without the
 * body) with the document of the app's operations: made on the first
 * request, then kept, as the operations cannot change while the app runs.
 */
export function documentEndpoint(operations: readonly Operation[]) {
  let text: string | undefined;
  return (res: ServerResponse): number => {
    text ??= openApiText(operations);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
    return 200;
  };
}
