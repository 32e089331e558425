/**
 * safety: `explicit` for pornographic pages, from the host name, the URL path and the text, when
 * the record does not say; else `safe`.
 *
 * Each cue adds points; EXPLICIT_AT points make a page explicit:
 * - an adult top-level domain (`.xxx`, `.porn`, `.adult`, `.sex`) 2 points;
 * - host labels and path segments (host names run words together, so terms are looked for
 *   inside them, once the ordinary words that hold one are masked: `milford`, `picasso`, INNOCENT_WORDS
 *   of safety-model.ts): an unambiguous term (`porn`, `xxx`, `hentai`...) 2 points; `sex` inside a word
 *   2 points unless it reads `sexy`, `sexual(ity)`, `sexolog...`; an ambiguous term (`cum`,
 *   `anal`, `tits`...) only as a whole segment, 2 points; a suggestive term (`tube`, `cams`,
 *   `mature`, `babes`, `sexy`...) 1 point, so two of them are needed;
 * - words of the host or path that say lingerie, swimwear, sexual education or health take
 *   2 points back (the hard negatives: lingerie shops and sexual-health education);
 * - the text: vulgar sexual words (not clinical ones: `penis`, `vagina`, `intercourse` count for
 *   nothing) in the first MAX_TEXT_WORDS words; TEXT_HITS of them, TEXT_DISTINCT distinct, give
 *   2 points, twice as many 4.
 *
 * Below EXPLICIT_AT points, the host-name model (safety-model.ts, a logistic regression over
 * the name's lexicon words and character n-grams, trained by `npm run train:safety`) still
 * calls the page explicit when its probability for the host reaches the model's threshold:
 * the adult sites whose names no keyword reads (`fuqvids`, `javstreamz`); not on a government or
 * academic host (host_rank's priors), where the name is no cue at all, nor where the host name
 * holds a safe-context word. With SAFETY_HOST_LIST set (safety-host-list.ts), a host on that list is
 * explicit under the same two conditions, and when the model's probability for its name (without
 * the evidence gate) reaches the model's `listFloor`: a listed name that reads as a shop or a
 * clinic does not count.
 *
 * What it cannot know: an adult site whose name and URL say nothing (`hushpass.com`) and whose
 * page text is short or in a language the word list does not cover; images. Measured by
 * `npm run bench:signals` (README).
 */
import { deriveHostFields } from '../derive.js';
import { fromRecord, type Derived } from './derived.js';
import { SAFETY_MODEL } from './safety-model.generated.js';
import { hostPrior } from './host-rank.js';
import { configuredHostList, type SortedHostList } from './safety-host-list.js';
import { ADULT_TLDS, EXPLICIT_WORDS, hostFeatures, hostParts, hostScore, INNOCENT_WORDS } from './safety-model.js';

type SafetyLevel = 'safe' | 'explicit';

export const EXPLICIT_AT = 2;
export const MAX_TEXT_WORDS = 2000;
export const TEXT_HITS = 3;
export const TEXT_DISTINCT = 2;

/** Found inside any host label or path segment. */
const EMBEDDED_TERMS = [
  'porn', 'xxx', 'fuck', 'pussy', 'hentai', 'milf', 'bukkake', 'shemale', 'tranny', 'blowjob', 'gangbang', 'slut', 'whore',
  'cumshot', 'camgirl', 'creampie', 'incest', 'nsfw', 'futanari', 'chaturbate', 'xvideo', 'masturbat', 'smut', 'hooker',
  'tgirl', 'ladyboy', 'bdsm', 'nudes', 'horny', 'swinger', 'plumper', 'busty', 'pervers', 'fap', 'kink', 'bitch',
];
/** Only as a whole host label or path segment (inside words they are innocent: document, analysis, title). */
const WHOLE_TERMS = new Set([
  'sex', 'cum', 'anal', 'tits', 'cock', 'dick', 'ass', 'jav', 'nude', 'naked', 'rape', 'porno', 'erotica', 'erotic',
  'escort', 'escorts', 'twink', 'twinks', 'voyeur', 'orgasm', 'prn',
]);
/** One point each, inside labels and segments: common words that add up only in company. */
const SUGGESTIVE_TERMS = [
  'boob', 'nude', 'naked', 'erotic', 'escort', 'hardcore', 'twink', 'voyeur', 'fetish', 'kink', 'lewd', 'doujin', 'yaoi',
  'mature', 'granny', 'teen', 'amateur', 'babe', 'hot', 'sexy', 'tube', 'cam', 'adult', 'dating', 'girls', 'gals', 'wife',
  'moms', 'orgasm', 'stripper', 'spank', 'playboy', 'lesbian', 'gay', 'booty', 'titty', 'cock', 'dick', 'cum', 'anal',
  'tits', 'threesome', 'lust', 'skirt', 'hub', 'naughty', 'dirty', 'webcam', 'pleasure', 'desire',
];
/** `sex` inside a word, other than sexy / sexual / sexuality / sexology. */
const EMBEDDED_SEX = /sex(?!y|ual|olog)/;
/** Words that make sex and nudity words something else: underwear and swimwear shops, sexual education and health. */
const SAFE_CONTEXT = ['lingerie', 'bikini', 'underwear', 'swim', 'educat', 'health', 'sante', 'clinic', 'sexual', 'sexolog', 'teach', 'school', 'amour', 'dessous', 'info'];
/** Vulgar sexual words of page text, matched as whole words (clinical vocabulary is left out on purpose). */
const TEXT_TERMS = new Set([
  'porn', 'porno', 'xxx', 'fuck', 'fucking', 'fucked', 'pussy', 'cock', 'cocks', 'dick', 'cum', 'cumshot', 'blowjob',
  'blowjobs', 'gangbang', 'slut', 'sluts', 'whore', 'milf', 'milfs', 'hentai', 'anal', 'tits', 'titties', 'boobs',
  'horny', 'creampie', 'bukkake', 'shemale', 'tranny', 'camgirl', 'camgirls', 'nsfw', 'smut', 'xvideos', 'pornhub',
  'nudes', 'threesome', 'masturbation', 'masturbating', 'squirting', 'bdsm', 'fetish', 'escort', 'escorts', 'hardcore',
]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part !== '');
}

/** The host name's labels (without the top-level domain) and the path's words. */
function urlWords(host: string, path: string): { name: string[]; path: string[] } {
  const labels = host.toLowerCase().replace(/^www\./, '').split('.');
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: the raw path still has its words.
  }
  return { name: words(labels.slice(0, -1).join('.')), path: words(decoded) };
}

function urlParts(host: string, path: string): string[] {
  const { name, path: pathWords } = urlWords(host, path);
  return [...name, ...pathWords];
}

/**
 * The host-name model's explicit words (EXPLICIT_WORDS) that count as a whole word of the path too
 * (`/day-6-bondage`, `/double-ended-dildo`), 2 points, with their plurals; less those a path uses
 * innocently (`/webcam` of a weather site, `/hardcore` of music, `/stripper` of paint, `/fetish` of fashion, `/nudist` of naturism) or that are too short to be sure of as a word.
 */
const PATH_WORD_EXCLUDED = new Set(['webcam', 'hardcore', 'stripper', 'fetish', 'spank', 'nudist', 'kink', 'tgp', 'prn', 'fuk', 'fuq', 'porr', 'jav']);
const PATH_WORDS: ReadonlySet<string> = new Set(EXPLICIT_WORDS.filter((word) => !PATH_WORD_EXCLUDED.has(word)).flatMap((word) => [word, `${word}s`]));

/**
 * `part` with the ordinary words that hold an explicit term (INNOCENT_WORDS: `milford`, `picasso`,
 * `camera`) blanked out, unless a longer explicit term holds them in turn (`cumshot` keeps its `shot`).
 */
export function maskInnocentWords(part: string): string {
  let masked = part;
  for (const [word, holders] of INNOCENT_HOLDERS) {
    for (let from = part.indexOf(word); from >= 0; from = part.indexOf(word, from + 1)) {
      const end = from + word.length;
      const held = holders.some((term) => {
        for (let at = part.indexOf(term, Math.max(0, end - term.length)); at >= 0 && at <= from; at = part.indexOf(term, at + 1)) if (at + term.length >= end) return true;
        return false;
      });
      if (!held) masked = masked.slice(0, from) + '-'.repeat(word.length) + masked.slice(end);
    }
  }
  return masked;
}
/** Each innocent word with the longer explicit terms that contain it (only those can hold it). */
const INNOCENT_HOLDERS: ReadonlyArray<readonly [string, readonly string[]]> = INNOCENT_WORDS.map((word) => [word, EMBEDDED_TERMS.filter((term) => term.length > word.length && term.includes(word))]);

interface Points {
  points: number;
  cues: string[];
}

/** Points from the host and the URL path. */
export function urlPoints(host: string, path = ''): Points {
  const parts = urlParts(host, path);
  const pathWords = new Set(urlWords(host, path).path);
  let points = 0;
  const cues: string[] = [];
  const tld = host.toLowerCase().slice(host.lastIndexOf('.') + 1);
  if (ADULT_TLDS.has(tld)) {
    points += 2;
    cues.push(`.${tld}`);
  }
  for (const part of parts) {
    if (WHOLE_TERMS.has(part) || (pathWords.has(part) && PATH_WORDS.has(part))) {
      points += 2;
      cues.push(part);
      continue;
    }
    const masked = maskInnocentWords(part);
    for (const term of EMBEDDED_TERMS) {
      if (masked.includes(term)) {
        points += 2;
        cues.push(term);
      }
    }
    if (part !== 'sex' && EMBEDDED_SEX.test(masked)) {
      points += 2;
      cues.push('sex');
    }
    for (const term of SUGGESTIVE_TERMS) {
      if (part.length > term.length && masked.includes(term)) {
        points += 1;
        cues.push(`~${term}`);
      }
    }
  }
  if (points > 0) {
    const context = safeContextWord(host, path);
    if (context !== undefined) {
      points -= 2;
      cues.push(`-${context}`);
    }
  }
  return { points, cues };
}

/** The first word of the host or path that says lingerie, swimwear, sexual education or health (SAFE_CONTEXT), if any. */
export function safeContextWord(host: string, path = ''): string | undefined {
  const joined = urlParts(host, path).join(' ');
  return SAFE_CONTEXT.find((word) => joined.includes(word));
}

/** Points from the text's vulgar sexual words. */
export function textPoints(text: string): Points {
  let hits = 0;
  let seen = 0;
  const distinct = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/\p{L}+/gu)) {
    if (++seen > MAX_TEXT_WORDS) break;
    if (!TEXT_TERMS.has(match[0])) continue;
    hits++;
    distinct.add(match[0]);
  }
  if (hits < TEXT_HITS || distinct.size < TEXT_DISTINCT) return { points: 0, cues: [] };
  const points = hits >= 2 * TEXT_HITS && distinct.size >= 2 * TEXT_DISTINCT ? 4 : 2;
  return { points, cues: [`text:${[...distinct].slice(0, 4).join(',')}`] };
}

export interface SafetyInput {
  host: string;
  /** The URL's path (and query), where page-level cues sit. */
  path: string;
  title: string;
  text: string;
}

/** Hosts repeat heavily in a crawl; the model's answer per host is kept (bounded, dropped whole when full). */
const MODEL_CACHE_LIMIT = 50_000;
const modelCache = new Map<string, { probability: number; evidence: boolean }>();

function modelScore(host: string): { probability: number; evidence: boolean } {
  const cached = modelCache.get(host);
  if (cached !== undefined) return cached;
  const score = hostScore(SAFETY_MODEL, hostFeatures(host));
  if (modelCache.size >= MODEL_CACHE_LIMIT) modelCache.clear();
  modelCache.set(host, score);
  return score;
}

/** The host-name model's probability that `host` is an adult site (safety-model.ts), 0 when its name holds too little evidence. */
export function hostModelProbability(host: string): number {
  const { probability, evidence } = modelScore(host);
  return evidence ? probability : 0;
}

/** A government or academic host (host_rank's priors): its name is no cue (`essex.ac.uk`, `cumbria.gov.uk`); its paths and text still are. */
function officialOrAcademic(host: string): boolean {
  const fields = deriveHostFields(host.toLowerCase());
  const kind = hostPrior({ host: fields.host, registrableDomain: fields.registrableDomain, publicSuffix: hostParts(fields.host).suffix, tld: fields.tld }).kind;
  return kind === 'official' || kind === 'academic';
}

/**
 * `hostList`: an adult-host list to consult (default: the one SAFETY_HOST_LIST names, if any;
 * `null` for none, as the bench's without-list rows use).
 */
export function deriveSafety(input: SafetyInput, declared?: SafetyLevel, hostList: SortedHostList | null | undefined = configuredHostList()): Derived<SafetyLevel> {
  if (declared !== undefined) return fromRecord(declared);
  const nameCounts = input.host !== '' && !officialOrAcademic(input.host);
  const url = urlPoints(nameCounts ? input.host : '', input.path);
  const text = textPoints(`${input.title}\n${input.text}`);
  const points = url.points + text.points;
  const cues = [...url.cues, ...text.cues];
  if (points >= EXPLICIT_AT) return { value: 'explicit', source: 'derived', confidence: Math.min(1, 0.5 + points / 8), reason: cues.join(' ') };
  // A word of the host name that says lingerie, education or health (the rules' safe context) keeps the list and the model out
  // (of the name only: an adult site's `/info` page is no less adult).
  const safeContext = nameCounts && safeContextWord(input.host) !== undefined;
  if (nameCounts && !safeContext && hostList?.has(input.host) === true && modelScore(input.host).probability >= SAFETY_MODEL.listFloor) return { value: 'explicit', source: 'derived', confidence: 0.9, reason: ['host list', ...cues].join(' ') };
  const probability = nameCounts && !safeContext ? hostModelProbability(input.host) : 0;
  if (probability >= SAFETY_MODEL.threshold) return { value: 'explicit', source: 'derived', confidence: Math.round(probability * 100) / 100, reason: [`host model ${probability.toFixed(2)}`, ...cues].join(' ') };
  return { value: 'safe', source: cues.length > 0 ? 'derived' : 'default', confidence: points <= 0 ? 0.9 : 0.6, reason: cues.length > 0 ? cues.join(' ') : 'no explicit cue' };
}
