/**
 * The learned half of the safety signal: a logistic regression over what a host NAME says,
 * for the adult sites whose names a keyword rule cannot read (`efappy`, `viewgals`,
 * `javjunkies`: half the adult hosts of the labelled set).
 *
 * Features of a host (all 0/1), from its labels without the public suffix (`spicytranny` of
 * `www.spicytranny.com`, `realboys.blogspot` of `realboys.blogspot.com`):
 * - `w:TERM`: a word of the lexicon (EXPLICIT_WORDS, CONTEXT_WORDS) found inside the name (names run words together, so this is
 *   a greedy segmentation against the lexicon: `efappy` -> `fap`, `viewgals` -> `view`, `gals`);
 * - `sfx:SUFFIX`: the public suffix (`com`, `gov.uk`, `ac.jp`);
 * - `ip` alone for an IP address (no name to read);
 * - `tld:.xxx` for the adult top-level domains, `digit` when the name holds a digit, `dash`, and
 *   `len:N` its length in fives.
 *
 * The weights are fitted by `npm run train:safety` (bench/src/signals/train-safety.ts) on one
 * half of the labelled hosts and written to safety-model.generated.ts; `npm run bench:signals`
 * reports the other half. What it cannot know: a name that is a made-up word with no adult
 * n-gram (`hushpass`), and a site whose name says adult but whose content is not.
 */
import { isIP } from 'node:net';
import { deriveHostFields } from '../derive.js';
import { lexiconSegments, longestFirst } from '@evidence/schemas';

export interface SafetyModel {
  /** Feature name -> weight; features not listed weigh 0. */
  weights: Readonly<Record<string, number>>;
  bias: number;
  /** The probability at or above which a host is called explicit by its name alone. */
  threshold: number;
  /**
   * A host on SAFETY_HOST_LIST counts as explicit only when its name's probability (`hostScore`,
   * without the evidence gate) reaches this: a listed name that says lingerie shop or clinic
   * (weights below zero) does not.
   */
  listFloor: number;
}

/** The top-level domains ICANN delegated for adult content (`.xxx` in 2011, `.porn`, `.adult`, `.sex` in 2015). */
export const ADULT_TLDS: ReadonlySet<string> = new Set(['xxx', 'porn', 'adult', 'sex']);

/**
 * Words a host name is segmented against: adult vocabulary (English and the loan words adult
 * sites use in many languages) and the neutral words such names are made of, so that the model
 * can weigh both (`tube` is `youtube` too; `girls` is a school's too). General knowledge of how
 * such names are built, not a list of sites. Words for ethnicities and sexual orientations are
 * left out on purpose: a name saying `gay` or `asian` is not a cue to explicit content (the
 * model reads only the words listed here).
 */
/** Words that say explicit content on their own; the trainer pulls their weights toward a positive prior. */
export const EXPLICIT_WORDS: readonly string[] = [
  'porn', 'porno', 'prn', 'xxx', 'sex', 'sexo', 'fuck', 'fuq', 'fuk', 'pussy', 'hentai', 'milf', 'bukkake', 'shemale', 'tranny',
  'blowjob', 'gangbang', 'slut', 'whore', 'cumshot', 'cum', 'camgirl', 'creampie', 'incest', 'nsfw', 'futanari', 'xvideo', 'xnxx',
  'masturbat', 'smut', 'hooker', 'tgirl', 'ladyboy', 'bdsm', 'nude', 'nudist', 'naked', 'horny', 'swinger', 'plumper', 'busty',
  'pervert', 'fap', 'kink', 'bitch', 'anal', 'tits', 'titty', 'boob', 'cock', 'dick', 'jav', 'erotic', 'erotica', 'escort', 'twink',
  'voyeur', 'orgasm', 'hardcore', 'fetish', 'lewd', 'doujin', 'yaoi', 'squirt', 'stripper', 'spank', 'threesome', 'webcam', 'tgp',
  'jizz', 'spunk', 'deepthroat', 'handjob', 'footjob', 'rimjob', 'hotwife', 'cuckold', 'upskirt', 'downblouse', 'strapon', 'dildo',
  'femdom', 'bondage', 'bbw', 'pawg', 'rule34', 'ecchi', 'eroge', 'oppai', 'chudai',
  // the same in other languages adult names are written in
  'porr', 'ficken', 'muschi', 'titten', 'nackt', 'sesso', 'seks', 'sexe', 'buceta', 'putaria', 'porno',
  // and more of them, chosen for holding no ordinary word of those languages or of English (not `cul` of culture, `nue` of
  // avenue, `puta` of reputation, `ero` of hero, `lund` of Lund, `chut` of parachute)
  'salope', 'baise', 'erotique', 'desnuda', 'follar', 'safada', 'gostosa', 'fotze', 'schlampe', 'scopare', 'puttana', 'neuken',
  'sletten', 'cipka', 'pizda', 'bokep', 'ngentot', 'memek', 'lucah', 'bogel', 'yadong', 'tetas', 'putas',
];
/**
 * Ordinary words and place names that hold an explicit term (the Scunthorpe problem): segmented
 * whole by the model, and masked before the keyword rules (safety.ts) look for terms inside a
 * name, so that `milforddailynews` holds no `milf` and `picassogallery` no `ass`.
 */
export const INNOCENT_WORDS: readonly string[] = [
  'analy', 'canal', 'banal', 'document', 'circum', 'cucumber', 'accum', 'cumber', 'cumbria', 'essex', 'sussex', 'wessex',
  'peacock', 'hancock', 'cockpit', 'dickens', 'class', 'glass', 'mass', 'grass', 'assoc', 'assist', 'assess', 'bass', 'embassy',
  'tallahassee', 'chassis', 'compass', 'brass', 'harass', 'picasso', 'molasses', 'carcass', 'ambassador', 'passport',
  'password', 'passage', 'passenger', 'massachusetts', 'assembl', 'asset', 'assam',
  'hotel', 'shot', 'therapist', 'title', 'petit', 'institut', 'java', 'camp', 'camera', 'campus', 'cambridge', 'fukushima',
  'fukuoka', 'thorn', 'scunthorpe', 'porridge', 'seksjon', 'sextant', 'sexton', 'arsenal', 'cocktail', 'shitake', 'matsushita', 'kinko', 'pennis',
  'milford', 'curcumin',
];

/** Words common in adult names and elsewhere too, and the words news, public, academic, shop and health names are made of: weighed by the data alone. */
export const CONTEXT_WORDS: readonly string[] = [
  'horn', 'booty', 'playboy', 'lust', 'naughty', 'dirty', 'cams', 'cam', 'tube', 'xx', 'nud', 'bare', 'uncut', 'cream', 'juicy',
  'wet', 'hot', 'hottie', 'sexy', 'babe', 'babes', 'gals', 'girls', 'girl', 'chick', 'teen', 'mature', 'granny', 'mom', 'moms',
  'aunty', 'wife', 'wives', 'amateur', 'boys', 'males', 'hunk', 'stud', 'daddy', 'bunny', 'kitty', 'pink', 'cherry', 'lips', 'skirt',
  'panty', 'panties', 'stocking', 'feet', 'foot', 'leg', 'legs', 'ass', 'butt', 'adult', 'dating', 'hookup', 'affair', 'flirt',
  'pleasure', 'desire', 'passion', 'intimate', 'secret', 'private', 'pass', 'club', 'vip', 'pics', 'pix', 'photo', 'gallery',
  'galleries', 'vid', 'vids', 'video', 'videos', 'movie', 'movies', 'clip', 'clips', 'film', 'flix', 'hub', 'list', 'top', 'free',
  'hd', 'hq', 'tv', 'live', 'chat', 'show', 'stories', 'story', 'toon', 'anime', 'manga', 'comic', 'game', 'games',
  'leak', 'leaked', 'onlyfans', 'bhabhi', 'novinha', 'r18', 'geil', 'xhamster',
  'news', 'times', 'post', 'daily', 'herald', 'journal', 'press', 'tribune', 'gazette', 'report', 'media', 'radio', 'today',
  'online', 'world', 'global', 'city', 'county', 'state', 'gov', 'univ', 'college', 'school', 'edu', 'institute', 'library',
  'museum', 'science', 'health', 'clinic', 'medical', 'care', 'educat', 'sexual', 'sexolog', 'family', 'parent', 'teach',
  'learn', 'info', 'help', 'guide', 'lingerie', 'bikini', 'swim', 'underwear', 'bra', 'knicker', 'corset', 'hosiery', 'intimates',
  'nightwear', 'curves', 'plus', 'size', 'actress', 'celeb', 'funny', 'fashion', 'shop', 'store', 'boutique',
  'wear', 'dress', 'beauty', 'style', 'home', 'house', 'tech', 'soft', 'code', 'dev', 'data', 'net', 'web', 'forum', 'board',
  'church', 'law', 'bank', 'travel', 'sport', 'music', 'book', 'books', 'art', 'food', 'cook', 'auto', 'car', 'review',
  ...INNOCENT_WORDS,
];

const LEXICON_BY_LENGTH = longestFirst([...EXPLICIT_WORDS, ...CONTEXT_WORDS]);

/** A host split at its public suffix: `name` (lower-case, `www.` dropped) and `suffix` (`co.uk`; empty when it has none). */
export function hostParts(host: string): { name: string; suffix: string } {
  const fields = deriveHostFields(host.toLowerCase());
  const bare = fields.host.replace(/^www\d*\./, '');
  const registrable = fields.registrableDomain;
  const dot = registrable.indexOf('.');
  const suffix = dot < 0 ? '' : registrable.slice(dot + 1);
  return suffix !== '' && bare.endsWith(`.${suffix}`) ? { name: bare.slice(0, -suffix.length - 1), suffix } : { name: bare, suffix: '' };
}

/** The host's labels without its public suffix (`spicytranny` of `www.spicytranny.com`). */
export function hostName(host: string): string {
  return hostParts(host).name;
}

/** The lexicon words inside `label`, longest first and not overlapping (`spicytranny` -> `tranny`; `efappy` -> `fap`). */
export function lexiconWords(label: string): string[] {
  return lexiconSegments(label, LEXICON_BY_LENGTH).words;
}

/** The 0/1 features of a host (see the module comment). */
export function hostFeatures(host: string): Set<string> {
  const features = new Set<string>();
  const lower = host.toLowerCase();
  // An IP address has no name to read.
  if (isIP(lower.replace(/^\[|\]$/g, '')) !== 0) return new Set(['ip']);
  const tld = lower.slice(lower.lastIndexOf('.') + 1);
  if (ADULT_TLDS.has(tld)) features.add(`tld:.${tld}`);
  const { name, suffix } = hostParts(lower);
  features.add(`sfx:${suffix}`);
  if (/[0-9]/.test(name)) features.add('digit');
  if (name.includes('-')) features.add('dash');
  features.add(`len:${Math.min(4, Math.floor(name.length / 5))}`);
  for (const label of name.split('.')) {
    if (label === '' || label === 'www') continue;
    for (const word of lexiconWords(label)) features.add(`w:${word}`);
  }
  return features;
}

const EXPLICIT_FEATURES = new Set(EXPLICIT_WORDS.map((word) => `w:${word}`));

/**
 * How many lexicon words the model leans adult on (weight > 0) a name without an explicit word
 * needs before the model may decide alone. Two: one ambiguous word alone (`tube` of youtube, `post`
 * of nypost, `ass` of hassanchef) is not evidence. One was measured by `npm run train:safety` and
 * `npm run bench:signals` (README, safety): out of fold on the tuning half F1 0.746 against 0.691,
 * on the half not tuned on 0.692 against 0.612, but it called youtube.com, nypost.com and
 * hassanchef.com explicit, and 68 of the 4,071 ordinary background hosts against 8: on the open web,
 * where adult hosts are few, that costs more precision than the labelled set shows.
 */
export const MIN_LEANING_WORDS = 2;

/**
 * The model's probability that a host is an adult site, from its name, and whether the name holds
 * evidence enough for the model to decide alone: an explicit word, or MIN_LEANING_WORDS words the
 * model leans adult on (weight > 0); one ambiguous word alone (`tube` of youtube, `hub` of github,
 * `hot` of hotwheels) is not.
 */
export function hostScore(model: SafetyModel, features: ReadonlySet<string>, minLeaningWords = MIN_LEANING_WORDS): { probability: number; evidence: boolean } {
  let score = model.bias;
  let explicit = false;
  let leaning = 0;
  for (const feature of features) {
    const weight = model.weights[feature] ?? 0;
    score += weight;
    if (EXPLICIT_FEATURES.has(feature)) explicit = true;
    else if (feature.startsWith('w:') && weight > 0) leaning++;
  }
  return { probability: 1 / (1 + Math.exp(-score)), evidence: explicit || leaning >= minLeaningWords };
}
