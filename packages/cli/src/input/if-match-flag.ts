import { CliError } from '../backend/backend.js';

// docs/api/choices.md "Conditional requests": If-Match takes a version as
// `"3"` or `3`, or `*` for any. Anything else can never match: the PATCH
// endpoints would answer version_conflict, as if the resource had changed,
// and resume invalid_if_match naming the header. A person typed a flag, so
// the flag is named, before anything is called.

const VERSION = /^(?:"\d+"|\d+|\*)$/;

/** The parser of `--if-match <version>`. */
export function ifMatchVersion(text: string): string {
  if (!VERSION.test(text.trim())) {
    throw new CliError('usage', `--if-match ${text} is not a version; give the version you read, such as 3, or * for any.`);
  }
  return text.trim();
}
