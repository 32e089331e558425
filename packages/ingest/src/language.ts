/**
 * Language of a page body when the record does not say: franc (trigram statistics) on a prefix
 * of the text, mapped from ISO 639-3 to the 639-1 codes the lang filter uses. Detection runs
 * once per page, never per passage.
 */
import { franc } from 'franc-min';

export const UNDETERMINED_LANGUAGE = 'und';

/**
 * A prefix long enough for trigram statistics to settle; franc's cost grows with the text and
 * a page rarely changes language after its first paragraphs.
 */
const SAMPLE_CHARACTERS = 1200;

/** The franc-min languages that have a 639-1 code; any other answer becomes `und`. */
const ISO_639_3_TO_1: Readonly<Record<string, string>> = {
  eng: 'en', deu: 'de', fra: 'fr', spa: 'es', ita: 'it', por: 'pt', nld: 'nl',
  pol: 'pl', ces: 'cs', ron: 'ro', hun: 'hu', swe: 'sv', tur: 'tr', vie: 'vi',
  ind: 'id', zlm: 'ms', jav: 'jv', sun: 'su', tgl: 'tl', swh: 'sw', hau: 'ha',
  yor: 'yo', ibo: 'ig', zul: 'zu', som: 'so', kin: 'rw', run: 'rn', nya: 'ny',
  lin: 'ln', plt: 'mg', uzn: 'uz', azj: 'az', hrv: 'hr', bos: 'bs', srp: 'sr',
  rus: 'ru', ukr: 'uk', bel: 'be', bul: 'bg', kaz: 'kk', arb: 'ar', urd: 'ur',
  pes: 'fa', pbu: 'ps', ckb: 'ku', hin: 'hi', mar: 'mr', npi: 'ne', ben: 'bn',
  pan: 'pa', guj: 'gu', ori: 'or', tam: 'ta', tel: 'te', kan: 'kn', mal: 'ml',
  sin: 'si', tha: 'th', lao: 'lo', khm: 'km', mya: 'my', kat: 'ka', hye: 'hy',
  ell: 'el', heb: 'he', amh: 'am', cmn: 'zh', jpn: 'ja', kor: 'ko',
};

/** 639-1 code of the text's language, or `und` when franc cannot tell. */
export function detectLanguage(text: string): string {
  const sample = text.length > SAMPLE_CHARACTERS ? text.slice(0, SAMPLE_CHARACTERS) : text;
  const iso6393 = franc(sample);
  return ISO_639_3_TO_1[iso6393] ?? UNDETERMINED_LANGUAGE;
}
