// The public surface of @schedule/http.

export { type AdmissionDeps, type Admitted, admitRequest, setRateLimitHeaders } from './admit-request.js';
export { type AppMetrics, type AppMetricsOptions, createAppMetrics } from './app-metrics.js';
export { type AppDeps, buildApp, type RequestHandler, type RequestLogger } from './build-app.js';
export { clientAddress, MAX_TRUSTED_PROXIES, trustedProxyHops } from './client-address.js';
export { CLIENT_CLOSED_STATUS, closedByClient } from './client-closed.js';
export { checkJsonContentType } from './content-type.js';
export { DOCS_PATH } from './docs-page.js';
export { HTTP_WORDS } from './http-words.js';
export { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, listen, type RunningServer } from './listen.js';
export { observeHandler } from './observe-handler.js';
export { OPENAPI_PATH } from './openapi/meta-paths.js';
export { openApiDocument, openApiText } from './openapi/openapi-document.js';
export { lingerAfterRefusal, MAX_BODY_BYTES, readBody, readJsonBody } from './read-body.js';
export { errorEnvelope, sendError } from './respond.js';
export { HTTP_STATUS } from './status-codes.js';
export { bearerChallenge } from './www-authenticate.js';
