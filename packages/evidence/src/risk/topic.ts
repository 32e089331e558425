/** Content words of a sentence, keyed loosely enough that "functions" meets "function" and "liver" meets "livers". */

const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during ' +
    'each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off ' +
    'on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves its it\'s don\'t can\'t won\'t isn\'t aren\'t ' +
    'one two three four five first second new old many much make made get got give given take taken use used using way ways thing things something anything everything ' +
    'example examples simple simply terms term short brief briefly detail details detailed step steps based words word kind sort lot lots well good best better really ' +
    'describe explain write compose provide list summarize summarise translate generate create draft outline define compare discuss calculate solve tell name teach show ' +
    'please now next then know think happened happen going like want need let see look say said says must may might shall also still even ever yet'
  ).split(' '),
);

/** Words of three letters or more, not stop words, each keyed by its first five letters. */
export function contentWords(normalised: string): string[] {
  const words = normalised.match(/\p{L}[\p{L}\p{N}'-]*/gu) ?? [];
  return words.filter((word) => word.length >= 3 && !STOPWORDS.has(word)).map((word) => word.slice(0, 5));
}

/** Whether any of `words` occurs in `context`. */
export function overlaps(words: readonly string[], context: ReadonlySet<string>): boolean {
  return words.some((word) => context.has(word));
}
