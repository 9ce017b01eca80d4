import { de } from './de.js';
import { en, type Messages } from './en.js';

export type { Messages } from './en.js';

/** The page's languages, English first: what a visitor gets when nothing they accept is here. */
export const CATALOGUE: ReadonlyMap<string, Messages> = new Map([
  ['en', en],
  ['de', de],
]);

/** A header longer than this is not read: a browser's is a few dozen characters. */
const MAX_ACCEPT_LANGUAGE = 256;

/**
 * The language and the locale a request is answered in: `lang` from the
 * address when it names one of ours (the switcher writes it), else the
 * first of `Accept-Language` (RFC 9110 section 12.5.4, by q-value) we have,
 * else English. The locale keeps the visitor's region, so times follow
 * their convention: en-US reads 2:30 PM, en-GB 14:30.
 */
export function chooseLanguage(lang: string | undefined, acceptLanguage: string | undefined): { messages: Messages; locale: string } {
  const ranked = rankedTags(acceptLanguage);
  // Language tags are case-insensitive (RFC 5646 section 2.1.1): `?lang=DE` is German.
  const asked = lang?.toLowerCase();
  const chosen = asked !== undefined && CATALOGUE.has(asked) ? asked : ranked.map(primary).find((tag) => CATALOGUE.has(tag));
  const messages = CATALOGUE.get(chosen ?? 'en') ?? en;
  // The visitor's own tag when it is of the chosen language and a locale Intl knows; else the language alone.
  const regional = ranked.find((tag) => primary(tag) === messages.lang && Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0);
  return { messages, locale: regional ?? messages.lang };
}

const primary = (tag: string) => tag.split('-')[0]?.toLowerCase() ?? '';

function rankedTags(header: string | undefined): string[] {
  if (header === undefined || header.length > MAX_ACCEPT_LANGUAGE) return [];
  return header
    .split(',')
    .slice(0, 16)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{1,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(entry.tag) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}
