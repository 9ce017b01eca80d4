export { createScheduleClient, type ScheduleClient, type ScheduleClientOptions } from './client.js';
export { type ErrorBody, type ErrorCode, ScheduleApiError } from './errors.js';
export { type ClientPaths, ifMatch } from './headers.js';
export type { ListItem, ListPath, ListQuery } from './paginate.js';
export type { components, operations, paths } from './schema.js';
