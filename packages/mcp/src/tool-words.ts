import type { CallWords } from '@schedule/core';

/** How a tool says a call and its inputs: the inputs are arguments of these names (tool-schemas.ts). */
export const TOOL_WORDS: CallWords = {
  call: 'This tool',
  name: { idempotency_key: 'idempotency_key', if_match: 'if_match' },
  carried: { idempotency_key: 'idempotency_key', if_match: 'if_match' },
};
