// A name a caller sent that nothing takes is most often a slip of one that
// something does: the answer names the one meant (issue 11 for MCP tool
// arguments, issue 29 for every write's body fields).

/** Edit distance (Levenshtein), for names of a few dozen characters. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    previous = current;
  }
  return previous[b.length]!;
}

// Stryker disable next-line Regex: a run of separators split one at a time gives empty words, which wordsOf drops alike.
const SEPARATORS = /[^a-z0-9]+/;

/** The words of a name that say something (`id` alone does not say which id). */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(SEPARATORS)
    .filter((word) => word.length >= 3);

/**
 * The known name an unknown one most likely meant: one that shares its
 * words or begins like it (`host_id` or `host` for `host_user_id`, `email`
 * for `attendee_email`, `meta` for `metadata`), else a small typo or
 * inflection (`statuses`, `hostUserId`, `limt`, `nmae`).
 */
export function closestName(unknown: string, known: readonly string[]): string | undefined {
  const flat = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = new Set(wordsOf(unknown));
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const typo = distance(flat(unknown), flat(name));
    const theirs = wordsOf(name);
    const shared = theirs.filter((w) => words.has(w)).length;
    const [shorter, longer] = [flat(unknown), flat(name)].sort((a, b) => a.length - b.length) as [string, string];
    const related =
      (shared > 0 && (shared === theirs.length || shared === words.size)) || (shorter.length >= 4 && longer.startsWith(shorter));
    // Related words rank between a one-letter slip and a two-letter one.
    const score = related ? Math.min(typo, 1.5) : typo;
    const close = related || typo <= (Math.min(unknown.length, name.length) < 4 ? 1 : 2);
    if (close && (!best || score < best.score)) best = { name, score };
  }
  return best?.name;
}

/**
 * " Did you mean X (not Y)?" for each unknown name with a close known one,
 * in the order given; empty when none is close. `prefix` is put before both
 * names (`attendee.` for a field of the attendee).
 */
export function didYouMean(unknown: readonly string[], known: readonly string[], prefix = ''): string {
  return unknown
    .flatMap((name) => {
      const meant = closestName(name, known);
      return meant === undefined || meant === name ? [] : [` Did you mean ${prefix}${meant} (not ${prefix}${name})?`];
    })
    .join('');
}
