import { CliError } from '../backend/backend.js';

/**
 * The parser of a flag that takes a whole number (`--count`, `--limit`):
 * text that is not one is a usage error naming the flag, before anything is
 * called, where `Number()` would send NaN for the API to call "not finite".
 * The range is the API's to judge, in its words.
 */
export function wholeNumber(flag: string): (text: string) => number {
  return (text) => {
    if (!/^[+-]?\d+$/.test(text.trim())) throw new CliError('usage', `${flag} ${text} is not a whole number.`);
    return Number(text);
  };
}
