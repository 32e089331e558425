/**
 * Sentence and paragraph generation from the compiled templates of vocabulary.ts.
 */
import type { SeededRandom } from './prng.js';
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
const SLOT_INDEX = new Map(SLOT_NAMES.map((name, index) => [name, index]));
const SUBJECT_SLOT = 0;

/** A compiled template: literal strings and slot numbers. */
export type Template = ReadonlyArray<string | number>;

export function compile(source: string): Template {
  const parts: Array<string | number> = [];
  const slotPattern = /\{([A-Z]+)\}/g;
  let last = 0;
  let match: RegExpExecArray | null;
  while ((match = slotPattern.exec(source)) !== null) {
    const slot = SLOT_INDEX.get(match[1]);
    if (slot === undefined) throw new Error(`unknown slot {${match[1]}} in template: ${source}`);
    if (match.index > last) parts.push(source.slice(last, match.index));
    parts.push(slot);
    last = match.index + match[0].length;
  }
  if (last < source.length) parts.push(source.slice(last));
  return parts;
}

function hasSubject(template: Template): boolean {
  return template.includes(SUBJECT_SLOT);
}

export interface Subject {
  phrase: string;
  topics: string[];
  /** English grammatical number, for the agreement slots. */
  plural: boolean;
}

const SINGULAR_S = /(ss|us|is|series|news|physics)$/;

export function parseSubject(entry: string): Subject {
  const [phrase, tags] = entry.split('|');
  const plural = /[a-z]s$/.test(phrase) && !SINGULAR_S.test(phrase);
  return { phrase, topics: tags ? tags.split(',') : [], plural };
}

/** Compiled vocabulary of one (language, vertical). */
export interface Vocabulary {
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
  lead: Template[];
  body: Template[];
  titles: Template[];
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
  lead: Template[];
  body: Template[];
  titles: Template[];
}

const STYLES: Record<string, StylePool> = {};
for (const [name, list] of Object.entries(STYLE_TEMPLATES)) {
  const body = list.map(compile);
  STYLES[name] = { lead: body.filter(hasSubject), body, titles: (STYLE_TITLES[name] ?? []).map(compile) };
}

function buildEnglish(): Record<Vertical, Vocabulary> {
  const generic = GENERIC_TEMPLATES.map(compile);
  const vocabularies = {} as Record<Vertical, Vocabulary>;
  for (const vertical of VERTICALS) {
    const words = EN[vertical];
    const verticalTemplates = words.templates.map(compile);
    // Vertical templates count double so each vertical keeps its own phrasing.
    const body = [...verticalTemplates, ...verticalTemplates, ...generic];
    vocabularies[vertical] = {
      lang: 'en',
      vertical: vertical,
      subjects: words.subjects.map(parseSubject),
      nouns: words.nouns,
      adjectives: words.adjectives,
      verbs: words.verbs,
      actors: words.actors,
      entities: words.entities,
      places: words.places ?? CITIES,
      days: WEEKDAYS,
      lead: body.filter(hasSubject),
      body,
      titles: words.titles.map(compile),
    };
  }
  return vocabularies;
}

function buildForeign(): Record<Exclude<Lang, 'en'>, Partial<Record<Vertical, Vocabulary>>> {
  const vocabularies = {} as Record<Exclude<Lang, 'en'>, Partial<Record<Vertical, Vocabulary>>>;
  for (const lang of ['de', 'fr', 'es'] as const) {
    const languageWords = FOREIGN[lang];
    const body = languageWords.templates.map(compile);
    const titles = languageWords.titles.map(compile);
    const byVertical: Partial<Record<Vertical, Vocabulary>> = {};
    for (const [vertical, words] of Object.entries(languageWords.verticals) as Array<[Vertical, NonNullable<(typeof languageWords.verticals)[Vertical]>]>) {
      byVertical[vertical] = {
        lang,
        vertical: vertical,
        subjects: words.subjects.map(parseSubject),
        nouns: words.nouns,
        adjectives: [],
        verbs: [],
        actors: words.actors,
        entities: words.entities,
        places: languageWords.places,
        days: languageWords.days,
        lead: body.filter(hasSubject),
        body,
        titles,
      };
    }
    vocabularies[lang] = byVertical;
  }
  return vocabularies;
}

export const ENGLISH_VOCABULARY: Record<Vertical, Vocabulary> = buildEnglish();
export const FOREIGN_VOCABULARY = buildForeign();

/** Verticals that have vocabulary in a language. */
export function verticalsOf(lang: Lang): Vertical[] {
  if (lang === 'en') return [...VERTICALS];
  return Object.keys(FOREIGN_VOCABULARY[lang]) as Vertical[];
}

export function vocabularyFor(lang: Lang, vertical: Vertical): Vocabulary {
  if (lang === 'en') return ENGLISH_VOCABULARY[vertical];
  const vocabulary = FOREIGN_VOCABULARY[lang][vertical];
  if (!vocabulary) throw new Error(`no ${lang} vocabulary for ${vertical}`);
  return vocabulary;
}

/** Context of one page's text. */
export interface TextContext {
  vocabulary: Vocabulary;
  subject: string;
  plural: boolean;
  host: string;
  year: number;
  style: Style;
}

/** Whitespace-separated word count (the texts use single spaces only). */
export function countWords(text: string): number {
  if (text.length === 0) return 0;
  let count = 1;
  let space = text.indexOf(' ');
  while (space !== -1) {
    count++;
    space = text.indexOf(' ', space + 1);
  }
  return count;
}

export function capitalize(text: string): string {
  const firstCode = text.charCodeAt(0);
  if (firstCode >= 97 && firstCode <= 122) return String.fromCharCode(firstCode - 32) + text.slice(1);
  if (firstCode > 127) {
    const upper = text[0].toUpperCase();
    if (upper !== text[0]) return upper + text.slice(1);
  }
  return text;
}

const A_BEFORE_VOWEL = /\b([Aa]) (?!uni|unan|use|usu|eu|one)([aeiouAEIOU])/;
const A_BEFORE_VOWEL_GLOBAL = /\b([Aa]) (?!uni|unan|use|usu|eu|one)([aeiouAEIOU])/g;

export interface Paragraph {
  text: string;
  words: number;
}

export class TextGenerator {
  constructor(private readonly random: SeededRandom) {}

  /** The text of one slot (its number is its place in SLOT_NAMES). */
  private slotText(slot: number, context: TextContext): string {
    const random = this.random;
    switch (slot) {
      case 0: // {S} the subject
        return context.subject;
      case 1: // {N} a noun
        return random.pick(context.vocabulary.nouns);
      case 2: // {A} an adjective
        return context.vocabulary.adjectives.length ? random.pick(context.vocabulary.adjectives) : 'new';
      case 3: // {V} a verb
        return context.vocabulary.verbs.length ? random.pick(context.vocabulary.verbs) : 'review';
      case 4: // {ACT} an actor
        return random.pick(context.vocabulary.actors);
      case 5: // {E} an entity
        return random.pick(context.vocabulary.entities);
      case 6: // {PER} a person
        return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
      case 7: // {PL} a place
        return random.pick(context.vocabulary.places);
      case 8: // {NUM} a small number
        return String(random.range(2, 48));
      case 9: // {BIG} a larger number
        return String(random.range(2, 95));
      case 10: // {PCT} a percentage
        return random.chance(0.5) ? `${random.range(1, 60)} percent` : `${random.range(0, 9)}.${random.range(1, 9)} percent`;
      case 11: // {DAY} a day
        return random.pick(context.vocabulary.days);
      case 12: // {MON} a month
        return random.pick(MONTHS);
      case 13: // {YEAR} a recent year
        return String(context.year - random.below(4));
      case 14: { // {SCORE} a score
        const loserScore = random.below(3);
        return `${loserScore + 1 + random.below(3)}-${loserScore}`;
      }
      case 15: // {HOST} the page's host
        return context.host;
      case 16: // {VER} a version
        return `${random.range(1, 5)}.${random.below(30)}`;
      case 17: // {IS} agreeing with the subject
        return context.plural ? 'are' : 'is';
      case 18: // {HAS} agreeing with the subject
        return context.plural ? 'have' : 'has';
      case 19: // {WAS} agreeing with the subject
        return context.plural ? 'were' : 'was';
      case 20: // {Z} the third-person -s
        return context.plural ? '' : 's';
      default:
        throw new Error(`bad slot ${slot}`);
    }
  }

  fill(template: Template, context: TextContext): string {
    let text = '';
    for (let i = 0; i < template.length; i++) {
      const part = template[i];
      text += typeof part === 'string' ? part : this.slotText(part, context);
    }
    return text;
  }

  sentence(template: Template, context: TextContext): string {
    const text = capitalize(this.fill(template, context));
    // English indefinite article before a vowel sound ("a asynchronous" -> "an asynchronous").
    return context.vocabulary.lang === 'en' && A_BEFORE_VOWEL.test(text) ? text.replace(A_BEFORE_VOWEL_GLOBAL, '$1n $2') : text;
  }

  private leadTemplate(context: TextContext): Template {
    if (context.vocabulary.lang === 'en' && context.style !== 'plain') {
      const stylePool = STYLES[context.style];
      if (stylePool && stylePool.lead.length && this.random.chance(0.4)) return this.random.pick(stylePool.lead);
    }
    return this.random.pick(context.vocabulary.lead);
  }

  private bodyTemplate(context: TextContext): Template {
    if (context.vocabulary.lang === 'en' && context.style !== 'plain') {
      const stylePool = STYLES[context.style];
      if (stylePool && this.random.chance(0.3)) return this.random.pick(stylePool.body);
    }
    return this.random.pick(context.vocabulary.body);
  }

  /** One paragraph of 34..~130 words that mentions the subject in its first sentence. */
  paragraph(context: TextContext, prefix = ''): Paragraph {
    const target = 34 + this.random.below(58);
    const lead = this.leadTemplate(context);
    const used: Template[] = [lead];
    let text = prefix + this.sentence(lead, context);
    let words = countWords(text);
    while (words < target) {
      // No template twice in one paragraph (a few retries, then accept).
      let template = this.bodyTemplate(context);
      for (let i = 0; i < 4 && used.includes(template); i++) template = this.bodyTemplate(context);
      used.push(template);
      const sentence = this.sentence(template, context);
      text += ' ' + sentence;
      words += countWords(sentence);
    }
    return { text, words };
  }

  /** One body sentence (for edits: added lines, updates). */
  bodySentence(context: TextContext): string {
    return this.sentence(this.bodyTemplate(context), context);
  }

  title(context: TextContext): string {
    if (context.vocabulary.lang === 'en' && context.style !== 'plain') {
      const stylePool = STYLES[context.style];
      if (stylePool && stylePool.titles.length && this.random.chance(0.6)) return this.sentence(this.random.pick(stylePool.titles), context);
    }
    return this.sentence(this.random.pick(context.vocabulary.titles), context);
  }
}
