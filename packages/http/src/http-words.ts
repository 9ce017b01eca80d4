import type { CallWords } from '@schedule/core';

/** How the HTTP API says a call and its inputs (docs/api): a call is an endpoint, the inputs are headers. */
export const HTTP_WORDS: CallWords = {
  call: 'This endpoint',
  name: { idempotency_key: 'Idempotency-Key', if_match: 'If-Match' },
  carried: { idempotency_key: 'an Idempotency-Key header', if_match: 'an If-Match header' },
};
