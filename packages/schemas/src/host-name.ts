/**
 * How a host name is read by the name-based signals (source role's host rules and host-name
 * model here, safety's host-name model in ingest): its parts, and the words of a lexicon inside a
 * label where names run words together (`bakespace` -> `bake`, `space`).
 */

/** The registrable name without its public suffix (`hi5` of `hi5.com`) and the subdomain labels other than `www.`, outermost first. */
export function hostNameParts(host: string, registrableDomain: string, publicSuffix: string): { name: string; subLabels: string[] } {
  const name = publicSuffix !== '' && registrableDomain.endsWith(`.${publicSuffix}`) ? registrableDomain.slice(0, -publicSuffix.length - 1) : registrableDomain;
  const subLabels = host.length > registrableDomain.length ? host.slice(0, host.length - registrableDomain.length - 1).split('.').filter((label) => label !== 'www' && label !== '') : [];
  return { name, subLabels };
}

/** A lexicon's words, once each, longest first (ties in code-unit order): the order `lexiconSegments` reads them in. */
export function longestFirst(words: Iterable<string>): string[] {
  return [...new Set(words)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * The words of `wordsLongestFirst` inside `label`, greedily longest first and not overlapping, and
 * how many of its characters they cover. Words of at most `shortAtEndsOnly` characters count only
 * at an end of the label (`a` is in every name); 0 lets every word count anywhere.
 */
export function lexiconSegments(label: string, wordsLongestFirst: readonly string[], shortAtEndsOnly = 0): { words: string[]; covered: number } {
  const taken = new Uint8Array(label.length);
  const words: string[] = [];
  let covered = 0;
  for (const word of wordsLongestFirst) {
    let from = label.indexOf(word);
    while (from >= 0) {
      const atEnd = from === 0 || from + word.length === label.length;
      let free = word.length > shortAtEndsOnly || atEnd;
      for (let at = from; free && at < from + word.length; at++) if (taken[at] === 1) free = false;
      if (free) {
        taken.fill(1, from, from + word.length);
        words.push(word);
        covered += word.length;
      }
      from = label.indexOf(word, from + 1);
    }
  }
  return { words, covered };
}
