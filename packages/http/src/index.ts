// The public surface of @schedule/http.

export { type AppDeps, buildApp, type RequestHandler, type RequestLogger } from './build-app.js';
export { listen, type RunningServer } from './listen.js';
export { MAX_BODY_BYTES } from './read-body.js';
export { HTTP_STATUS } from './status-codes.js';
