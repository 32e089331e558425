/**
 * Character classes and the two normalised forms the risk checks match on: a readable form
 * (one sentence, lower case, single spaces) and a compact form (letters only, look-alikes folded)
 * that sees through spacing, punctuation, leetspeak and homoglyphs between the letters of a hijack.
 */

/** Invisible format characters: zero-width space/non-joiner/joiner, word joiner, BOM, invisible operators, Mongolian vowel separator, Unicode tag characters. */
export const INVISIBLE_CLASS = '\\u200B\\u200C\\u200D\\u2060-\\u2064\\uFEFF\\u180E\\u{E0000}-\\u{E007F}';
/** Characters that render as blank but are not whitespace: Braille blank, Hangul fillers. */
export const BLANK_FILLER_CLASS = '\\u2800\\u3164\\u115F\\u1160\\uFFA0';
/** Bidi overrides (LRO, RLO): they reorder what is shown, never needed by ordinary text. */
export const BIDI_OVERRIDE_CLASS = '\\u202D\\u202E';
/** Bidi embeddings, isolates and their terminators: legitimate inside right-to-left text only. */
export const BIDI_EMBEDDING_CLASS = '\\u202A\\u202B\\u202C\\u2066-\\u2069';
/** Letters of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, NKo), whose text may use embeddings. */
export const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

/** Everything normalisation drops: invisible characters, soft hyphen, bidi marks and controls. */
export const INVISIBLE_ALL = new RegExp(`[${INVISIBLE_CLASS}\\u00AD\\u200E\\u200F${BIDI_OVERRIDE_CLASS}${BIDI_EMBEDDING_CLASS}]`, 'gu');

/** Normalised form for matching: NFKC, invisible characters dropped, ASCII quotes, lower case, single spaces. */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE_ALL, '')
    .replace(/[\u2018\u2019\u201B\u0060\u00B4]/g, "'")
    .replace(/[\u201C\u201D\u201E\u00AB\u00BB]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Look-alikes folded to the Latin letter they imitate (Cyrillic, Greek, digits and symbols of leetspeak). */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
};
/** Leetspeak: folded only next to a letter, so "IGNORE!!! 4 times" keeps its words apart. */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };

/** The compact form of a text and, for each of its characters, the offset it came from. */
export interface CompactText {
  letters: string;
  offsets: number[];
}

/**
 * Letters only, lower case, look-alikes folded: "I-g-n-0-r-e   ALL prev1ous instructions" becomes
 * "ignoreallpreviousinstructions". Each letter remembers its offset in the original text.
 */
export function compact(text: string): CompactText {
  const characters = [...text];
  const letterAt = (index: number) => index >= 0 && index < characters.length && /\p{L}/u.test(characters[index]);
  let letters = '';
  const offsets: number[] = [];
  let offset = 0;
  characters.forEach((character, index) => {
    const code = character.charCodeAt(0);
    if (code < 128) {
      // ASCII, the common case: letters as they are, leetspeak next to a letter, nothing else.
      const lower = code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : character;
      const letter = lower >= 'a' && lower <= 'z' ? lower : LEET[character] !== undefined && (letterAt(index - 1) || letterAt(index + 1)) ? LEET[character] : undefined;
      if (letter !== undefined) {
        letters += letter;
        offsets.push(offset);
      }
    } else {
      for (const piece of character.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()) {
        const letter = LOOK_ALIKES[piece] ?? piece;
        if (letter >= 'a' && letter <= 'z' && letter.length === 1) {
          letters += letter;
          offsets.push(offset);
        }
      }
    }
    offset += character.length;
  });
  return { letters, offsets };
}
