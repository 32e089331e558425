/**
 * Sentence and paragraph generation from the compiled templates of vocabulary.ts.
 */
import type { Rng } from './prng.js';
import type { Lang, Vertical } from './types.js';
import { VERTICALS } from './types.js';
import {
  CITIES,
  EN,
  FIRST_NAMES,
  FOREIGN,
  GENERIC_TEMPLATES,
  LAST_NAMES,
  MONTHS,
  STYLE_TEMPLATES,
  STYLE_TITLES,
  WEEKDAYS,
} from './vocabulary.js';

const SLOT_NAMES = ['S', 'N', 'A', 'V', 'ACT', 'E', 'PER', 'PL', 'NUM', 'BIG', 'PCT', 'DAY', 'MON', 'YEAR', 'SCORE', 'HOST', 'VER', 'IS', 'HAS', 'WAS', 'Z'];
const SLOT_INDEX = new Map(SLOT_NAMES.map((n, i) => [n, i]));
const S_SLOT = 0;

/** A compiled template: literal strings and slot numbers. */
export type Tpl = ReadonlyArray<string | number>;

export function compile(src: string): Tpl {
  const parts: Array<string | number> = [];
  const re = /\{([A-Z]+)\}/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src)) !== null) {
    const slot = SLOT_INDEX.get(m[1]);
    if (slot === undefined) throw new Error(`unknown slot {${m[1]}} in template: ${src}`);
    if (m.index > last) parts.push(src.slice(last, m.index));
    parts.push(slot);
    last = m.index + m[0].length;
  }
  if (last < src.length) parts.push(src.slice(last));
  return parts;
}

function hasSubject(t: Tpl): boolean {
  return t.includes(S_SLOT);
}

export interface Subject {
  phrase: string;
  topics: string[];
  /** English grammatical number, for the agreement slots. */
  plural: boolean;
}

const SINGULAR_S = /(ss|us|is|series|news|physics)$/;

export function parseSubject(s: string): Subject {
  const [phrase, tags] = s.split('|');
  const plural = /[a-z]s$/.test(phrase) && !SINGULAR_S.test(phrase);
  return { phrase, topics: tags ? tags.split(',') : [], plural };
}

/** Compiled vocabulary of one (language, vertical). */
export interface Voc {
  lang: Lang;
  vertical: Vertical;
  subjects: Subject[];
  nouns: string[];
  adjectives: string[];
  verbs: string[];
  actors: string[];
  entities: string[];
  places: string[];
  days: string[];
  lead: Tpl[];
  body: Tpl[];
  titles: Tpl[];
}

/** Content styles: sentence flavour per content type. */
export type Style = 'plain' | 'news' | 'docs' | 'reference' | 'ugc' | 'academic' | 'product' | 'video' | 'howto' | 'opinion' | 'document' | 'code';

export function styleOf(contentType: string): Style {
  switch (contentType) {
    case 'news':
      return 'news';
    case 'docs':
      return 'docs';
    case 'reference':
      return 'reference';
    case 'qa':
    case 'forum':
      return 'ugc';
    case 'academic':
      return 'academic';
    case 'product':
      return 'product';
    case 'video':
      return 'video';
    case 'how-to':
      return 'howto';
    case 'opinion':
      return 'opinion';
    case 'document':
      return 'document';
    case 'code':
      return 'code';
    default:
      return 'plain';
  }
}

interface StylePool {
  lead: Tpl[];
  body: Tpl[];
  titles: Tpl[];
}

const STYLES: Record<string, StylePool> = {};
for (const [name, list] of Object.entries(STYLE_TEMPLATES)) {
  const body = list.map(compile);
  STYLES[name] = { lead: body.filter(hasSubject), body, titles: (STYLE_TITLES[name] ?? []).map(compile) };
}

function buildEnglish(): Record<Vertical, Voc> {
  const generic = GENERIC_TEMPLATES.map(compile);
  const out = {} as Record<Vertical, Voc>;
  for (const v of VERTICALS) {
    const w = EN[v];
    const own = w.templates.map(compile);
    // Vertical templates count double so each vertical keeps its own phrasing.
    const body = [...own, ...own, ...generic];
    out[v] = {
      lang: 'en',
      vertical: v,
      subjects: w.subjects.map(parseSubject),
      nouns: w.nouns,
      adjectives: w.adjectives,
      verbs: w.verbs,
      actors: w.actors,
      entities: w.entities,
      places: w.places ?? CITIES,
      days: WEEKDAYS,
      lead: body.filter(hasSubject),
      body,
      titles: w.titles.map(compile),
    };
  }
  return out;
}

function buildForeign(): Record<Exclude<Lang, 'en'>, Partial<Record<Vertical, Voc>>> {
  const out = {} as Record<Exclude<Lang, 'en'>, Partial<Record<Vertical, Voc>>>;
  for (const lang of ['de', 'fr', 'es'] as const) {
    const lw = FOREIGN[lang];
    const body = lw.templates.map(compile);
    const titles = lw.titles.map(compile);
    const per: Partial<Record<Vertical, Voc>> = {};
    for (const [v, w] of Object.entries(lw.verticals) as Array<[Vertical, NonNullable<(typeof lw.verticals)[Vertical]>]>) {
      per[v] = {
        lang,
        vertical: v,
        subjects: w.subjects.map(parseSubject),
        nouns: w.nouns,
        adjectives: [],
        verbs: [],
        actors: w.actors,
        entities: w.entities,
        places: lw.places,
        days: lw.days,
        lead: body.filter(hasSubject),
        body,
        titles,
      };
    }
    out[lang] = per;
  }
  return out;
}

export const VOC_EN: Record<Vertical, Voc> = buildEnglish();
export const VOC_FOREIGN = buildForeign();

/** Verticals that have vocabulary in a language. */
export function verticalsOf(lang: Lang): Vertical[] {
  if (lang === 'en') return [...VERTICALS];
  return Object.keys(VOC_FOREIGN[lang]) as Vertical[];
}

export function vocFor(lang: Lang, vertical: Vertical): Voc {
  if (lang === 'en') return VOC_EN[vertical];
  const v = VOC_FOREIGN[lang][vertical];
  if (!v) throw new Error(`no ${lang} vocabulary for ${vertical}`);
  return v;
}

/** Context of one page's text. */
export interface Ctx {
  voc: Voc;
  subject: string;
  plural: boolean;
  host: string;
  year: number;
  style: Style;
}

/** Whitespace-separated word count (the texts use single spaces only). */
export function countWords(s: string): number {
  if (s.length === 0) return 0;
  let n = 1;
  let i = s.indexOf(' ');
  while (i !== -1) {
    n++;
    i = s.indexOf(' ', i + 1);
  }
  return n;
}

export function capitalize(s: string): string {
  const c = s.charCodeAt(0);
  if (c >= 97 && c <= 122) return String.fromCharCode(c - 32) + s.slice(1);
  if (c > 127) {
    const up = s[0].toUpperCase();
    if (up !== s[0]) return up + s.slice(1);
  }
  return s;
}

const A_BEFORE_VOWEL = /\b([Aa]) (?!uni|unan|use|usu|eu|one)([aeiouAEIOU])/;
const A_BEFORE_VOWEL_G = /\b([Aa]) (?!uni|unan|use|usu|eu|one)([aeiouAEIOU])/g;

export interface Para {
  text: string;
  words: number;
}

export class TextGen {
  constructor(private readonly rng: Rng) {}

  private slot(slot: number, c: Ctx): string {
    const r = this.rng;
    switch (slot) {
      case 0:
        return c.subject;
      case 1:
        return r.pick(c.voc.nouns);
      case 2:
        return c.voc.adjectives.length ? r.pick(c.voc.adjectives) : 'new';
      case 3:
        return c.voc.verbs.length ? r.pick(c.voc.verbs) : 'review';
      case 4:
        return r.pick(c.voc.actors);
      case 5:
        return r.pick(c.voc.entities);
      case 6:
        return `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
      case 7:
        return r.pick(c.voc.places);
      case 8:
        return String(r.range(2, 48));
      case 9:
        return String(r.range(2, 95));
      case 10:
        return r.chance(0.5) ? `${r.range(1, 60)} percent` : `${r.range(0, 9)}.${r.range(1, 9)} percent`;
      case 11:
        return r.pick(c.voc.days);
      case 12:
        return r.pick(MONTHS);
      case 13:
        return String(c.year - r.int(4));
      case 14: {
        const b = r.int(3);
        return `${b + 1 + r.int(3)}-${b}`;
      }
      case 15:
        return c.host;
      case 16:
        return `${r.range(1, 5)}.${r.int(30)}`;
      case 17:
        return c.plural ? 'are' : 'is';
      case 18:
        return c.plural ? 'have' : 'has';
      case 19:
        return c.plural ? 'were' : 'was';
      case 20:
        return c.plural ? '' : 's';
      default:
        throw new Error(`bad slot ${slot}`);
    }
  }

  fill(t: Tpl, c: Ctx): string {
    let out = '';
    for (let i = 0; i < t.length; i++) {
      const p = t[i];
      out += typeof p === 'string' ? p : this.slot(p, c);
    }
    return out;
  }

  sentence(t: Tpl, c: Ctx): string {
    const s = capitalize(this.fill(t, c));
    // English indefinite article before a vowel sound ("a asynchronous" -> "an asynchronous").
    return c.voc.lang === 'en' && A_BEFORE_VOWEL.test(s) ? s.replace(A_BEFORE_VOWEL_G, '$1n $2') : s;
  }

  private leadTpl(c: Ctx): Tpl {
    if (c.voc.lang === 'en' && c.style !== 'plain') {
      const st = STYLES[c.style];
      if (st && st.lead.length && this.rng.chance(0.4)) return this.rng.pick(st.lead);
    }
    return this.rng.pick(c.voc.lead);
  }

  private bodyTpl(c: Ctx): Tpl {
    if (c.voc.lang === 'en' && c.style !== 'plain') {
      const st = STYLES[c.style];
      if (st && this.rng.chance(0.3)) return this.rng.pick(st.body);
    }
    return this.rng.pick(c.voc.body);
  }

  /** One paragraph of 34..~130 words that mentions the subject in its first sentence. */
  paragraph(c: Ctx, prefix = ''): Para {
    const target = 34 + this.rng.int(58);
    const lead = this.leadTpl(c);
    const used: Tpl[] = [lead];
    let text = prefix + this.sentence(lead, c);
    let words = countWords(text);
    while (words < target) {
      // No template twice in one paragraph (a few retries, then accept).
      let t = this.bodyTpl(c);
      for (let i = 0; i < 4 && used.includes(t); i++) t = this.bodyTpl(c);
      used.push(t);
      const s = this.sentence(t, c);
      text += ' ' + s;
      words += countWords(s);
    }
    return { text, words };
  }

  /** One body sentence (for edits: added lines, updates). */
  bodySentence(c: Ctx): string {
    return this.sentence(this.bodyTpl(c), c);
  }

  title(c: Ctx): string {
    if (c.voc.lang === 'en' && c.style !== 'plain') {
      const st = STYLES[c.style];
      if (st && st.titles.length && this.rng.chance(0.6)) return this.sentence(this.rng.pick(st.titles), c);
    }
    return this.sentence(this.rng.pick(c.voc.titles), c);
  }
}
