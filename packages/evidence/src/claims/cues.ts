/**
 * The word lists the claim relation reads (claims.ts): negation, null results, direction words,
 * antonym pairs, and the labels and cues that tell a finding sentence from a background one.
 * General English and scientific-reporting vocabulary; nothing here names a page, host or claim.
 */

/** A negation: not, no, never, cannot, n't, fails to, lacks, lacking, absence of, absent, unable, unaffected, ... */
export const NEGATION_CUE =
  /\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|(?:ca|wo|is|are|was|were|does|do|did|has|have|had|should|would|could)n['’]?t|fail(?:s|ed)? to|lack(?:s|ing|ed)?|absen(?:ce|t)|unable|ineffective|unaffected|unchanged|independent(?:ly)? of|irrespective|regardless|den(?:y|ies|ied)|refut(?:e|es|ed)|disprov(?:e|es|ed)|false|untrue|incorrect|myth|contrary to)\b/i;

/** A null result: no significant difference, not associated, did not, similar, comparable, unchanged, ... */
export const NULL_RESULT_CUE =
  /\b(?:no (?:significant|statistically|difference|association|effect|evidence|change|relationship|correlation|increase|decrease|benefit)|not (?:significantly|associated|related|correlated|different|affect\w*|alter\w*|change\w*|influence\w*)|did not|does not|was not|were not|similar|comparable|unchanged|unaffected|independent of|neither)\b/i;

/** Words that say something goes up, is promoted or does better. */
export const UP_WORD =
  /^(?:increas\w*|higher|elevat\w*|enhanc\w*|greater|more|promot\w*|rais\w*|rise|rises|rising|upregulat\w*|up-regulat\w*|induc\w*|activat\w*|stimulat\w*|improv\w*|accelerat\w*|augment\w*|gain\w*|exacerbat\w*|boost\w*|amplif\w*|potentiat\w*|excess\w*|larger|longer|faster|stronger|positive\w*|benefi\w*|better|efficac\w*|effective)$/;

/** Words that say something goes down, is held back or does worse. */
export const DOWN_WORD =
  /^(?:decreas\w*|lower\w*|reduc\w*|declin\w*|diminish\w*|inhibit\w*|suppress\w*|attenuat\w*|impair\w*|less|fewer|downregulat\w*|down-regulat\w*|block\w*|prevent\w*|loss|lose|loses|drop\w*|fall\w*|slow\w*|deplet\w*|abolish\w*|smaller|shorter|weaker|negative\w*|worse|ineffective|protect\w*|deficien\w*|deficit\w*|lack\w*)$/;

/**
 * Antonym pairs by word start: a claim word starting with the left side whose passage holds no
 * word of that start but one starting with a right-side word (or the reverse) says the opposite.
 */
const ANTONYM_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['increas', 'decreas reduc lower diminish declin attenuat stabl unchang'],
  ['higher', 'lower reduc decreas'],
  ['high', 'low'],
  ['more', 'less fewer'],
  ['greater', 'lower smaller less fewer'],
  ['elevat', 'reduc lower decreas'],
  ['enhanc', 'reduc impair attenuat inhibit suppress diminish'],
  ['improv', 'worsen impair deteriorat'],
  ['promot', 'inhibit suppress prevent block'],
  ['activat', 'inhibit deactivat suppress repress'],
  ['induc', 'inhibit suppress repress prevent'],
  ['upregulat', 'downregulat'],
  ['up-regulat', 'down-regulat'],
  ['gain', 'loss los'],
  ['stimulat', 'inhibit suppress'],
  ['accelerat', 'slow delay decelerat'],
  ['faster', 'slower'],
  ['larger', 'smaller'],
  ['longer', 'shorter'],
  ['stronger', 'weaker'],
  ['positive', 'negative invers'],
  ['benefi', 'harm detriment advers'],
  ['protect', 'harm risk damag'],
  ['effective', 'ineffective'],
  ['efficient', 'inefficient'],
  ['capabl', 'incapabl'],
  ['abl', 'unabl'],
  ['safe', 'unsafe'],
  ['stabl', 'unstabl destabil'],
  ['depend', 'independ'],
  ['central', 'peripheral'],
  ['abundan', 'scarc rare deplet'],
  ['common', 'rare uncommon'],
  ['present', 'absent absence'],
  ['sufficient', 'insufficient'],
  ['necessar', 'dispensabl unnecessar'],
  ['requir', 'dispensabl'],
  ['major', 'minor'],
  ['agonist', 'antagonist'],
  ['benign', 'malignant'],
  ['acute', 'chronic'],
  ['early', 'late'],
  ['inner', 'outer'],
  ['upstream', 'downstream'],
  ['mature', 'immature'],
  ['male', 'female'],
  ['overexpress', 'knockdown deficien delet knockout silenc'],
  ['exacerbat', 'ameliorat alleviat attenuat'],
  ['same', 'differ'],
  ['similar', 'differ'],
  ['associat', 'unassociat'],
  ['correlat', 'uncorrelat'],
  ['expand', 'scarc deplet reduc contract'],
  ['rais', 'lower'],
  ['rise', 'fall declin drop'],
  ['risk', 'protect'],
  ['worse', 'better improv'],
];

/** Word start -> the starts of its antonyms. */
const ANTONYMS = new Map<string, Set<string>>();
for (const [left, rights] of ANTONYM_PAIRS) {
  for (const right of rights.split(' ')) {
    if (!ANTONYMS.has(left)) ANTONYMS.set(left, new Set());
    if (!ANTONYMS.has(right)) ANTONYMS.set(right, new Set());
    ANTONYMS.get(left)!.add(right);
    ANTONYMS.get(right)!.add(left);
  }
}
const LONGEST_START = Math.max(...[...ANTONYMS.keys()].map((start) => start.length));
const SHORTEST_START = Math.min(...[...ANTONYMS.keys()].map((start) => start.length));

/** The antonym start a lower-cased word begins with, if any: the longest ("upregulat" before "up..."). */
export function antonymStart(word: string): string | undefined {
  for (let length = Math.min(LONGEST_START, word.length); length >= SHORTEST_START; length--) {
    const start = word.slice(0, length);
    if (ANTONYMS.has(start)) return start;
  }
  return undefined;
}

export function antonymsOf(start: string): ReadonlySet<string> {
  return ANTONYMS.get(start) ?? new Set();
}

/** A structured abstract's background label: the sentence states the question, not a finding. */
export const BACKGROUND_LABEL = /^\s*(?:BACKGROUND|OBJECTIVES?|CONTEXT|DESIGN|METHODS?|SETTING|PARTICIPANTS|IMPORTANCE|INTRODUCTION|AIMS?|PURPOSE|MATERIALS?)\b/;

/** A finding: we found, results, conclusion, significantly, associated, p <, odds ratio, showed, ... */
export const FINDING_CUE =
  /\b(?:we (?:found|show|report|observed|demonstrate|identif)\w*|results?|conclusions?|findings?|significantly|associated|p\s*[<=]|odds ratio|hazard ratio|relative risk|showed|shows|demonstrat\w*|reveal\w*|indicat\w*)\b/i;

/** Lower-cased words of a text (letters and inner hyphens). */
export function lowerWords(text: string): string[] {
  return text.toLowerCase().match(/[a-z][a-z-]*/g) ?? [];
}

/** +1 when a text's up words outnumber its down words, -1 for the reverse, 0 otherwise. */
export function direction(text: string): number {
  let up = 0;
  let down = 0;
  for (const word of lowerWords(text)) {
    if (UP_WORD.test(word)) up++;
    else if (DOWN_WORD.test(word)) down++;
  }
  return Math.sign(up - down);
}

/**
 * The tokens of a text that hold a digit, lower-cased, thousands separators dropped: quantities
 * ("26" of "26 weeks", "32441" of "32,441", "10/66", "0.05") and the names of genes, proteins,
 * cells and trials ("cd4", "th2", "il-6", "brca2"). A claim's such token that the sentences
 * bearing on it repeat says they speak of the same specific thing or measurement.
 */
export function digitTokens(text: string): Set<string> {
  const tokens = text.toLowerCase().replace(/(\d),(?=\d{3}\b)/g, '$1').match(/[\p{L}\d]+(?:[./-][\p{L}\d]+)*/gu) ?? [];
  return new Set(tokens.filter((token) => /\d/.test(token)));
}
