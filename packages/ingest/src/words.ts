/** Word counting shared by the splitter and the derived `word_count`: a word is a run of non-space. */

/** ASCII whitespace, NBSP and the Unicode spaces a cleaned body still carries. */
export function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Count the words of `text[start, end)` without allocating: this runs on every passage. */
export function countWords(text: string, start = 0, end = text.length): number {
  let words = 0;
  let inWord = false;
  for (let index = start; index < end; index++) {
    if (isSpace(text.charCodeAt(index))) {
      inWord = false;
    } else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return words;
}
