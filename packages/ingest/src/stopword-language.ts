/**
 * A fast first guess at the language of a text from function words, for the languages most of a
 * crawl is written in. franc's trigram scoring costs about half a millisecond a page, which made
 * it the largest cost of an ingest run; this answers in microseconds when the text is plainly
 * one of these languages and says nothing (undefined) otherwise, leaving the rest to franc.
 * The lists keep only words that are not also frequent in another listed language
 * (`de`, `la`, `que`, `en`, `es`, `die`... are left out on purpose).
 */

const FUNCTION_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['the', 'and', 'of', 'to', 'that', 'it', 'for', 'with', 'are', 'on', 'this', 'be', 'by', 'have', 'from', 'not', 'at', 'which', 'but', 'they', 'or', 'has', 'were', 'their', 'been', 'would', 'can', 'you', 'he', 'she', 'we', 'his', 'there', 'what', 'when', 'who', 'more', 'than', 'its', 'about', 'into', 'after', 'how'],
  de: ['der', 'und', 'den', 'das', 'nicht', 'ist', 'mit', 'sich', 'des', 'auf', 'für', 'dem', 'von', 'eine', 'ein', 'auch', 'sind', 'zu', 'im', 'wird', 'oder', 'aber', 'bei', 'nach', 'wie', 'noch', 'einen', 'einer', 'über', 'durch', 'wurde', 'dass', 'kann', 'sie', 'wir', 'ich', 'werden', 'zum', 'zur', 'vor'],
  fr: ['les', 'et', 'est', 'une', 'dans', 'pour', 'qui', 'pas', 'sur', 'au', 'aux', 'avec', 'ce', 'sont', 'par', 'cette', 'ont', 'été', 'nous', 'vous', 'leur', 'elle', 'ces', 'mais', 'où', 'être', 'fait', 'comme', 'peut', 'selon', 'aussi', 'très', 'entre', 'depuis', 'lors'],
  es: ['el', 'los', 'las', 'del', 'y', 'más', 'pero', 'sus', 'ya', 'cuando', 'muy', 'sin', 'también', 'fue', 'hay', 'está', 'están', 'puede', 'desde', 'hasta', 'donde', 'porque', 'ser', 'tiene', 'según', 'otros', 'esto', 'cual', 'ese', 'esa', 'mismo', 'sido', 'hace'],
  it: ['il', 'di', 'che', 'è', 'della', 'delle', 'dei', 'degli', 'gli', 'nel', 'nella', 'alla', 'anche', 'più', 'questo', 'questa', 'sono', 'non', 'per', 'essere', 'molto', 'dopo', 'ci', 'ad', 'dal', 'dalla', 'sul', 'sulla', 'stato', 'perché', 'ancora', 'tutti'],
  pt: ['o', 'os', 'em', 'uma', 'não', 'ao', 'aos', 'na', 'é', 'foi', 'ele', 'ela', 'seu', 'sua', 'são', 'também', 'pelo', 'pela', 'isso', 'muito', 'às', 'nas', 'pelos', 'pelas', 'já', 'quando', 'havia', 'ainda', 'após', 'então', 'seus', 'suas', 'num', 'numa'],
  nl: ['het', 'een', 'van', 'dat', 'op', 'zijn', 'voor', 'niet', 'aan', 'ook', 'bij', 'maar', 'om', 'wordt', 'naar', 'dan', 'nog', 'wel', 'deze', 'hij', 'ze', 'hun', 'uit', 'meer', 'geen', 'tot', 'werd', 'heeft', 'hebben', 'kunnen', 'zou', 'wat', 'omdat', 'tussen', 'waar'],
};

const LANGUAGES = Object.keys(FUNCTION_WORDS);
/** word -> index into LANGUAGES; a word listed twice would make the lists ambiguous. */
const LANGUAGE_OF_WORD = new Map<string, number>();
for (let language = 0; language < LANGUAGES.length; language++) {
  for (const word of FUNCTION_WORDS[LANGUAGES[language]]) LANGUAGE_OF_WORD.set(word, language);
}

const SAMPLE_CHARACTERS = 600;
const WORD = /\p{L}+/gu;
/** Hits the winner needs, its share of all words, and its lead over the runner-up. */
const MINIMUM_HITS = 6;
const MINIMUM_SHARE = 0.15;
const MINIMUM_LEAD = 4;

/** The 639-1 code when function words make the language plain, else undefined. */
export function guessLanguageFromFunctionWords(text: string): string | undefined {
  const sample = (text.length > SAMPLE_CHARACTERS ? text.slice(0, SAMPLE_CHARACTERS) : text).toLowerCase();
  const hits = new Array<number>(LANGUAGES.length).fill(0);
  let words = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(sample); match !== null; match = WORD.exec(sample)) {
    words++;
    const language = LANGUAGE_OF_WORD.get(match[0]);
    if (language !== undefined) hits[language]++;
  }
  let best = 0;
  let runnerUp = -1;
  for (let language = 1; language < hits.length; language++) {
    if (hits[language] > hits[best]) {
      runnerUp = best;
      best = language;
    } else if (runnerUp < 0 || hits[language] > hits[runnerUp]) {
      runnerUp = language;
    }
  }
  const bestHits = hits[best];
  const runnerUpHits = runnerUp < 0 ? 0 : hits[runnerUp];
  if (bestHits < MINIMUM_HITS || bestHits < MINIMUM_SHARE * words || bestHits < MINIMUM_LEAD * runnerUpHits) return undefined;
  return LANGUAGES[best];
}
