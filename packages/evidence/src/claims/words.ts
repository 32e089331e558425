/**
 * Content words: what a claim and a passage are compared on (claim alignment, corroborate's
 * paraphrase search, lexical support's word test). Lower case, stop words and negation words
 * left out, a light plural and verb-ending fold.
 */

const STOP_WORDS = new Set(
  (
    'a an the and or of to in on at by for with from as is are was were be been being it its this that these those there their they them he she his her ' +
    'we our you your i me my which who whom whose what when where why how than then so such into over under about after before between during ' +
    'has have had do does did will would shall should can could may might must also only just very more most some any all each both few other ' +
    'up down out off again further once here same own too s t'
  ).split(' '),
);

const NEGATION_WORDS = new Set([
  'not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without',
  "can't", "won't", "isn't", "aren't", "wasn't", "weren't", "doesn't", "don't", "didn't", "hasn't", "haven't", "hadn't",
  "shouldn't", "wouldn't", "couldn't", 'cant', 'wont', 'isnt', 'arent', 'wasnt', 'werent', 'doesnt', 'dont', 'didnt',
]);


function fold(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|us|is)$/.test(word)) return word;
  if (word.length > 3 && word.endsWith('s')) return word.slice(0, -1);
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

/** Whether a lower-cased word carries content: three letters or more, neither a stop word nor a negation. */
export function isContentWord(word: string): boolean {
  return word.length >= 3 && !STOP_WORDS.has(word) && !NEGATION_WORDS.has(word);
}

/** Content words of a text: lower-cased, stop and negation words dropped, lightly folded. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}'’]+/u)) {
    const word = raw.replace(/^['’]+|['’]+$/g, '');
    if (!isContentWord(word)) continue;
    words.add(fold(word));
  }
  return words;
}
