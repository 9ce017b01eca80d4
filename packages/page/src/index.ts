// The public surface of @schedule/page: the booking pages as a front end.

export { ASSETS_PATH } from './assets.js';
export { type BookingPages, buildBookingPages, isPagePath } from './booking-pages.js';
export { chooseLanguage } from './messages/messages.js';
export type { BookingPagesDeps } from './page-deps.js';
export { PAGE_OPERATIONS } from './visitor-calls.js';
