/**
 * Reading a date value: a machine-readable one (an attribute, a JSON-LD string: ISO 8601 and its
 * variants) or one written for readers (`March 3, 2021`, `3 March 2021`, `3. März 2021`,
 * `3 mars 2021`, `3 de marzo de 2021`, `03.03.2021`, `03/04/2021`), as a calendar day with the
 * declared instant when there is one. Used by the published_at signal (published-at.ts).
 */

export interface DayValue {
  year: number;
  month: number;
  day: number;
  /** Unix seconds of a declared instant, when the value had a time and an offset. */
  instant?: number;
}

const MONTHS: Record<string, number> = {};
const MONTH_NAMES: ReadonlyArray<[number, string[]]> = [
  [1, ['january', 'jan', 'januar', 'jänner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'januari', 'janeiro', 'stycznia', 'styczeń', 'ledna', 'январь', 'января']],
  [2, ['february', 'feb', 'februar', 'feber', 'février', 'fevrier', 'févr', 'fevr', 'febrero', 'febbraio', 'februari', 'fevereiro', 'fev', 'lutego', 'února', 'февраль', 'февраля']],
  [3, ['march', 'mar', 'märz', 'maerz', 'mars', 'marzo', 'maart', 'março', 'marco', 'marca', 'března', 'март', 'марта', 'mrt']],
  [4, ['april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile', 'kwietnia', 'dubna', 'апрель', 'апреля']],
  [5, ['may', 'mai', 'mayo', 'maggio', 'mag', 'mei', 'maio', 'maja', 'května', 'май', 'мая']],
  [6, ['june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho', 'czerwca', 'června', 'июнь', 'июня']],
  [7, ['july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho', 'lipca', 'července', 'июль', 'июля']],
  [8, ['august', 'aug', 'août', 'aout', 'agosto', 'ago', 'augustus', 'sierpnia', 'srpna', 'август', 'августа']],
  [9, ['september', 'sep', 'sept', 'septembre', 'septiembre', 'set', 'settembre', 'setembro', 'września', 'září', 'сентябрь', 'сентября']],
  [10, ['october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out', 'października', 'října', 'октябрь', 'октября']],
  [11, ['november', 'nov', 'novembre', 'noviembre', 'novembro', 'listopada', 'listopadu', 'ноябрь', 'ноября']],
  [12, ['december', 'dec', 'dezember', 'dez', 'décembre', 'decembre', 'déc', 'diciembre', 'dic', 'dicembre', 'dezembro', 'grudnia', 'prosince', 'декабрь', 'декабря']],
];
for (const [month, names] of MONTH_NAMES) for (const name of names) MONTHS[name] = month;
const MONTH_WORD = `(${Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .map((name) => name.replace(/[.]/g, '\\.'))
  .join('|')})\\.?`;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validDay(year: number, month: number, day: number): boolean {
  return year >= 1995 && year <= 2100 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function fourDigitYear(text: string): number {
  const year = Number(text);
  return text.length === 2 ? (year < 70 ? 2000 + year : 1900 + year) : year;
}

/** ISO 8601 and its common variants: `2021-03-03`, `2021/03/03`, `2021-03-03T10:00:00+01:00`, `20210303`. */
const ISO_DATE = /^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}:?\d{2}|UTC|GMT)?)?/i;
const COMPACT_DATE = /^\s*(\d{4})(\d{2})(\d{2})(?:T?(\d{2})(\d{2})(\d{2})?)?\s*$/;

/** A machine-readable date value (an attribute, a JSON-LD string): ISO forms, else a textual one. */
export function parseMachineDate(value: string, usOrder = true): DayValue | undefined {
  const iso = ISO_DATE.exec(value) ?? COMPACT_DATE.exec(value);
  if (iso !== null) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (!validDay(year, month, day)) return undefined;
    const result: DayValue = { year, month, day };
    const zone = iso[7];
    if (iso[4] !== undefined && zone !== undefined) {
      const offset = /^[+-]/.test(zone) ? zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2') : 'Z';
      const millis = Date.parse(`${iso[1]}-${iso[2].padStart(2, '0')}-${iso[3].padStart(2, '0')}T${iso[4].padStart(2, '0')}:${iso[5]}:${iso[6] ?? '00'}${offset}`);
      if (Number.isFinite(millis)) result.instant = Math.floor(millis / 1000);
    }
    return result;
  }
  return parseTextDate(value, usOrder);
}

/** Numeric day-month-year: `03.03.2021`, `3/3/2021`, `03-03-2021`, `3.3.21`. */
const NUMERIC_DMY = /(?<![\d.])(\d{1,2})([./-])[\s\u2009\u202f]?(\d{1,2})\2[\s\u2009\u202f]?(\d{4}|\d{2})(?![\d]|\.\d)/;
const DAY_MONTH_YEAR = new RegExp(`(?<![\\p{L}\\d])(\\d{1,2})(?:st|nd|rd|th|er|\\.|º)?(?:\\s+de)?\\s+${MONTH_WORD}(?:\\s+de|,)?\\s+(\\d{4})(?!\\d)`, 'iu');
const MONTH_DAY_YEAR = new RegExp(`(?<![\\p{L}\\d])${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, 'iu');
const YEAR_MONTH_DAY = /(?<![\d])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d])/;

/**
 * A date written for readers, first form found: ISO `2021-03-03`, `March 3, 2021`,
 * `3 March 2021` (and `3. März 2021`, `3 mars 2021`, `3 de marzo de 2021`), `03.03.2021`.
 * Slashed numbers are month first for English pages (`usOrder`), day first elsewhere; a part
 * over 12 settles it. Dotted numbers are always day first.
 */
export function parseTextDate(text: string, usOrder = true): DayValue | undefined {
  for (const found of findTextDates(text, usOrder, 1)) return found.value;
  return undefined;
}

export interface FoundDate {
  value: DayValue;
  index: number;
}

/** The patterns findTextDates scans with, built once (global: each scan resets `lastIndex`), and how each match reads. */
const TEXT_DATE_PATTERNS: ReadonlyArray<[RegExp, (m: RegExpExecArray, usOrder: boolean) => DayValue | undefined]> = [
  [new RegExp(YEAR_MONTH_DAY.source, 'g'), (m) => day3(Number(m[1]), Number(m[2]), Number(m[3]))],
  [new RegExp(DAY_MONTH_YEAR.source, 'giu'), (m) => day3(Number(m[3]), MONTHS[m[2].toLowerCase()], Number(m[1]))],
  [new RegExp(MONTH_DAY_YEAR.source, 'giu'), (m) => day3(Number(m[3]), MONTHS[m[1].toLowerCase()], Number(m[2]))],
  [
    new RegExp(NUMERIC_DMY.source, 'g'),
    (m, usOrder) => {
      const year = fourDigitYear(m[4]);
      const a = Number(m[1]);
      const b = Number(m[3]);
      if (m[2] === '.' || !usOrder) return a > 12 || b <= 12 ? day3(year, b, a) : day3(year, a, b);
      return b > 12 && a <= 12 ? day3(year, a, b) : a > 12 ? day3(year, b, a) : day3(year, a, b);
    },
  ],
];

/** Every date expression in `text`, in order, at most `limit`. */
export function findTextDates(text: string, usOrder: boolean, limit = 50): FoundDate[] {
  const found: FoundDate[] = [];
  for (const [pattern, make] of TEXT_DATE_PATTERNS) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const value = make(match, usOrder);
      if (value !== undefined) found.push({ value, index: match.index });
      if (found.length >= limit * 4) break;
    }
  }
  found.sort((a, b) => a.index - b.index);
  return found.slice(0, limit);
}

export function day3(year: number, month: number | undefined, day: number): DayValue | undefined {
  if (month === undefined) return undefined;
  return validDay(year, month, day) ? { year, month, day } : undefined;
}
