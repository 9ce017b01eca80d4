/**
 * The two inputs of a call beside its path, query and body: docs/api's
 * Idempotency-Key and If-Match. HTTP sends them as headers, MCP as tool
 * arguments, so core's messages about them are worded by whoever shows them.
 */
export type CallInput = 'idempotency_key' | 'if_match';

/** How a front end says a call and its two inputs in a message; each front end has one such table. */
export interface CallWords {
  /** The call, opening a sentence: "This endpoint", "This tool". */
  readonly call: string;
  /** Each input by name: "Idempotency-Key", "idempotency_key". */
  readonly name: Readonly<Record<CallInput, string>>;
  /** Each input as what a call must carry: "an Idempotency-Key header", "idempotency_key". */
  readonly carried: Readonly<Record<CallInput, string>>;
}

/** Core's own words, of no front end: the spec's names, as a `ScheduleError`'s `message` and `details` say them. */
export const CORE_WORDS: CallWords = {
  call: 'This operation',
  name: { idempotency_key: 'Idempotency-Key', if_match: 'If-Match' },
  carried: { idempotency_key: 'an Idempotency-Key', if_match: 'an If-Match' },
};

/** A text that names a call input: given the words of whoever shows it. */
export type Worded<T> = T | ((words: CallWords) => T);
