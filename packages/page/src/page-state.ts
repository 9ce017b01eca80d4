import { isZone } from './format.js';
import { chooseLanguage, type Messages } from './messages/messages.js';

/** How long a parent origin may be: an origin is a scheme, a host and a port. */
const MAX_ORIGIN_LENGTH = 200;

/**
 * What every page of one request is written with: the visitor's language
 * and locale, the zone times are shown in, and whether it is embedded. The
 * address carries the choices (`tz`, `lang`, `embed`, `parent`), so a link
 * or a form keeps them without cookies or scripts.
 */
export interface PageState {
  readonly messages: Messages;
  readonly locale: string;
  /** The zone times are shown in: the visitor's choice (`tz`), else the host's. */
  readonly zone: string;
  /** Whether the visitor chose the zone (their browser's, or from the list). */
  readonly zoneChosen: boolean;
  readonly lang: string | undefined;
  readonly embed: boolean;
  /** The embedding page's origin, to which the embed reports what happened (postMessage). */
  readonly parent: string | undefined;
}

export function pageState(query: URLSearchParams, acceptLanguage: string | undefined, hostZone: string): PageState {
  const lang = query.get('lang') ?? undefined;
  const { messages, locale } = chooseLanguage(lang, acceptLanguage);
  const tz = query.get('tz') ?? undefined;
  const embed = query.get('embed') === '1';
  return {
    messages,
    locale,
    zone: isZone(tz) ? tz : hostZone,
    zoneChosen: isZone(tz),
    lang: lang?.toLowerCase() === messages.lang ? messages.lang : undefined,
    embed,
    parent: embed ? originOf(query.get('parent') ?? undefined) : undefined,
  };
}

/** An http(s) origin exactly as a browser writes `event.origin`, or undefined. */
export function originOf(text: string | undefined): string | undefined {
  if (text === undefined || text.length > MAX_ORIGIN_LENGTH) return undefined;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The parameters every link of the page keeps: the zone, the language and the embed. */
export function keptParams(state: PageState): [string, string][] {
  const kept: [string, string][] = [];
  if (state.zoneChosen) kept.push(['tz', state.zone]);
  if (state.lang !== undefined) kept.push(['lang', state.lang]);
  if (state.embed) kept.push(['embed', '1']);
  if (state.parent !== undefined) kept.push(['parent', state.parent]);
  return kept;
}

/** A link within the page, keeping the visitor's choices, with `params` added (undefined ones left out). */
export function hrefOf(state: PageState, path: string, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams(keptParams(state));
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, value);
  const query = search.toString();
  return query === '' ? path : `${path}?${query}`;
}
