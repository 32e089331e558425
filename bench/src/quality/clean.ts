/**
 * Natural-language queries go to every engine through the same neutral cleaning, so that a
 * character our boolean syntax reads (AND, OR, -term, "phrase", field:value, ...) cannot change
 * what a query means. Characters are replaced by a space (all these tokenisers split there
 * anyway); upper-case operator words are lower-cased (no engine here is case-sensitive).
 *
 * Beyond the list in the brief, the engine's parser (tantivy-query-grammar 0.27) also treats
 * ' (single-quoted phrase), ` and ! as syntax and IN as an operator word; they get the same
 * treatment, or "medicare's definition ..." would open a phrase at the apostrophe.
 */
export const SYNTAX_CHARACTERS = ['+', '-', '"', ':', '(', ')', '[', ']', '{', '}', '^', '~', '*', '?', '\\', '/', "'", '`', '!'];
export const OPERATOR_WORDS = ['AND', 'OR', 'NOT', 'IN'];

const characterClass = new RegExp(`[${SYNTAX_CHARACTERS.map((c) => `\\${c}`).join('')}]`, 'g');
const operatorWords = new RegExp(`\\b(${OPERATOR_WORDS.join('|')})\\b`, 'g');

export function cleanQuery(text: string): string {
  return text
    .replace(characterClass, ' ')
    .replace(operatorWords, (word) => word.toLowerCase())
    .replace(/\s+/g, ' ')
    .trim();
}

export const CLEANING_NOTE =
  `queries cleaned identically for every engine: ${SYNTAX_CHARACTERS.join(' ')} replaced by a space; ` +
  `upper-case ${OPERATOR_WORDS.join('/')} lower-cased`;
