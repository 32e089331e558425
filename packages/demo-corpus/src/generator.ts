/**
 * The deterministic demo corpus generator: a stream of page records, passage records and removal
 * events whose paragraphs add up to the requested passage count.
 */
import {
  ADULT_HOSTS,
  AGGREGATORS,
  HOSTS,
  HUB_WEIGHTS,
  MEDIA_GROUPS,
  MIRROR_HOSTS,
  NEWS_OUTLETS,
  RELEASE_WIRES,
  WIRES,
  hostNamed,
  type HostInfo,
  type WireService,
} from './hosts.js';
import { SeededRandom, cumulative } from './prng.js';
import {
  TextGenerator,
  capitalize,
  countWords,
  parseSubject,
  styleOf,
  verticalsOf,
  vocabularyFor,
  ENGLISH_VOCABULARY,
  type TextContext,
  type Paragraph,
  type Style,
  type Subject,
  type Vocabulary,
} from './text.js';
import type { ContentTypeName, SourceName } from '@evidence/schemas';
import {
  DEMO_REMOVAL_REASONS,
  VERTICALS,
  type Authority,
  type DemoPageRecord,
  type DemoRecord,
  type DemoRemovalReason,
  type Lang,
  type Role,
  type Vertical,
} from './types.js';
import {
  CITIES,
  COMPANIES,
  EXPLICIT_SENTENCES,
  FIRST_NAMES,
  HIDDEN_MARKUP_SENTENCES,
  INSTRUCTION_SENTENCES,
  LAST_NAMES,
  MONTHS,
  QUOTE_TEMPLATES,
  ROLE_MARKER_SENTENCES,
  WEEKDAYS,
} from './vocabulary.js';
import { compile } from './text.js';

export interface DemoCorpusOptions {
  /** Passages to produce (page paragraphs plus passage records). */
  passages: number;
  /** Unix seconds; nothing in the corpus is later than this. */
  now: number;
  /** PRNG seed (default 1). */
  seed?: number;
}

export interface DemoCorpusStats {
  pages: number;
  passageRecords: number;
  removals: number;
  passages: number;
}

const HOUR = 3600;
const DAY = 86400;
const YEAR = 365 * DAY;
/** Paragraphs must stay within 8..200 words for ingest; the generator keeps them within 30..160. */
const MAX_WORDS = 158;

/** Which hosts a plain page is drawn from: a source role, or the low-trust spam hosts. */
type Bucket = Role | 'spam';
const BUCKETS: Bucket[] = ['official', 'primary', 'secondary', 'aggregator', 'ugc', 'spam'];
const DEFAULT_BUCKET_WEIGHTS = [10, 14, 46, 3, 22, 5];
/** Per-vertical host mix (official, primary, secondary, aggregator, ugc, spam). */
const BUCKET_WEIGHTS: Partial<Record<Vertical, number[]>> = {
  news: [8, 0, 58, 8, 21, 5],
  code: [4, 36, 20, 0, 36, 4],
  science: [14, 26, 38, 2, 16, 4],
  health: [18, 12, 40, 2, 23, 5],
  law: [20, 10, 42, 1, 23, 4],
  cooking: [5, 6, 60, 0, 25, 4],
};
const CUMULATIVE_BUCKET_WEIGHTS: Record<Vertical, number[]> = Object.fromEntries(
  VERTICALS.map((vertical) => [vertical, cumulative(BUCKET_WEIGHTS[vertical] ?? DEFAULT_BUCKET_WEIGHTS)]),
) as Record<Vertical, number[]>;

function bucketOf(host: HostInfo): Bucket | null {
  switch (host.kind) {
    case 'wire':
    case 'releasewire':
    case 'mirror':
    case 'adult':
      return null; // only used by stories, copies and explicit pages
    case 'spam':
      return 'spam';
    default:
      return host.role;
  }
}

/** lang -> vertical -> bucket -> hosts, for plain pages. */
const HOST_INDEX: Record<Lang, Record<Vertical, Record<Bucket, HostInfo[]>>> = (() => {
  const index = {} as Record<Lang, Record<Vertical, Record<Bucket, HostInfo[]>>>;
  for (const lang of ['en', 'de', 'fr', 'es'] as const) {
    index[lang] = {} as Record<Vertical, Record<Bucket, HostInfo[]>>;
    for (const vertical of VERTICALS) {
      const byBucket = {} as Record<Bucket, HostInfo[]>;
      for (const bucket of BUCKETS) byBucket[bucket] = [];
      index[lang][vertical] = byBucket;
    }
  }
  for (const host of HOSTS) {
    const bucket = bucketOf(host);
    if (!bucket) continue;
    for (const vertical of host.verticals) index[host.lang][vertical][bucket].push(host);
  }
  return index;
})();

const GROUPS_BY_VERTICAL: Map<Vertical, HostInfo[][]> = (() => {
  const groups = new Map<Vertical, HostInfo[][]>();
  for (const vertical of VERTICALS) {
    const list: HostInfo[][] = [];
    for (const members of MEDIA_GROUPS.values()) {
      const covering = members.filter((host) => host.verticals.includes(vertical));
      if (covering.length >= 2) list.push(covering);
    }
    groups.set(vertical, list);
  }
  return groups;
})();

const STORY_VERTICALS: Vertical[] = ['news', 'finance', 'health', 'science', 'sports', 'law'];
const CUMULATIVE_STORY_WEIGHTS = cumulative([50, 14, 10, 10, 10, 6]);
const CUMULATIVE_VERTICAL_WEIGHTS = cumulative(VERTICALS.map((vertical) => (vertical === 'news' ? 2 : 1)));
const PARAGRAPH_COUNTS = [1, 2, 3, 4, 5, 6, 7];
const CUMULATIVE_PARAGRAPH_WEIGHTS = cumulative([8, 18, 24, 22, 14, 9, 5]);

const COMPILED_QUOTES = QUOTE_TEMPLATES.map(compile);
const UPDATE_NOTICE = compile('Update: this page was revised to reflect new information about the {S}.');

function slugify(title: string): string {
  let slug = title.toLowerCase();
  if (/[^\x00-\x7f]/.test(slug)) slug = slug.replace(/ß/g, 'ss').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  slug = slug.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length > 60) {
    slug = slug.slice(0, 60);
    const lastDash = slug.lastIndexOf('-');
    if (lastDash > 30) slug = slug.slice(0, lastDash);
  }
  return slug || 'page';
}

function authorityOf(host: HostInfo): Authority {
  switch (host.kind) {
    case 'gov':
    case 'edu':
    case 'court':
    case 'regulator':
      return 'high';
    case 'docs':
    case 'academic':
    case 'code':
    case 'newsroom':
    case 'wire':
    case 'news':
    case 'reference':
      return host.rank >= 0.78 ? 'high' : 'medium';
    case 'magazine':
    case 'releasewire':
      return 'medium';
    default:
      return 'low';
  }
}

/** A page that has been emitted, kept (boundedly) for mirrors, republishes and re-crawls. */
interface EmittedPage {
  record: DemoPageRecord;
  host: HostInfo;
  path: string;
  paragraphs: Paragraph[];
  vocabulary: Vocabulary;
  subject: Subject;
  style: Style;
  contentType: ContentTypeName;
}

interface PageSpec {
  host: HostInfo;
  vocabulary: Vocabulary;
  subject: Subject;
  contentType: ContentTypeName;
  fetched: number;
  published: number | undefined;
  paragraphs: Paragraph[];
  title: string;
  path?: string;
  explicit?: boolean;
  id?: string;
}

export class DemoCorpusGenerator {
  readonly stats: DemoCorpusStats = { pages: 0, passageRecords: 0, removals: 0, passages: 0 };
  private readonly random: SeededRandom;
  private readonly textGenerator: TextGenerator;
  private readonly now: number;
  private remaining: number;
  private sequence = 0;
  private removalCount = 0;
  private readonly removedUrls = new Set<string>();
  private readonly mirrorUrls = new Set<string>();
  private readonly hubsByVertical = new Map<Vertical, { urls: string[]; weights: number[]; cumulativeWeights: number[] }>();
  private readonly allHubs: { urls: string[]; weights: number[]; cumulativeWeights: number[] } = { urls: [], weights: [], cumulativeWeights: [] };
  private readonly recentByVertical = new Map<Vertical, string[]>();
  private readonly recentPages: EmittedPage[] = [];
  private readonly recentNews: EmittedPage[] = [];
  private readonly recrawlPool: EmittedPage[] = [];
  private readonly removalPool: Array<{ url: string; fetched: number; lowTrust: boolean }> = [];

  constructor(options: DemoCorpusOptions) {
    if (!Number.isInteger(options.passages) || options.passages < 0) throw new Error('passages must be a non-negative integer');
    if (!Number.isInteger(options.now) || options.now < 10 * YEAR) throw new Error('now must be unix seconds');
    const seed = options.seed ?? 1;
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error('seed must be a non-negative integer');
    this.random = new SeededRandom(seed);
    this.textGenerator = new TextGenerator(this.random);
    this.now = options.now;
    this.remaining = options.passages;
  }

  *records(): Generator<DemoRecord> {
    for (const record of this.hubPages()) yield record;
    for (const unit of this.showcase()) {
      if (this.remaining <= 0) break;
      for (const record of unit()) yield record;
    }
    const units: Array<() => DemoRecord[]> = [
      () => this.plainUnit(),
      () => this.wireUnit(),
      () => this.pressUnit(),
      () => this.reportUnit(),
      () => this.passageGroupUnit(),
      () => this.mirrorUnit(),
      () => this.republishUnit(),
      () => this.recrawlUnit(),
      () => this.removalUnit(),
    ];
    const unitWeights = cumulative([80, 2.2, 1.1, 3, 1.3, 1.2, 0.8, 2.2, 1.6]);
    while (this.remaining > 0) {
      const unit = this.random.pickWeighted(units, unitWeights);
      for (const record of unit()) yield record;
    }
  }

  // ---------------------------------------------------------------- scripted opening

  /** One of every feature early in the stream, so even small corpora exercise everything. */
  private showcase(): Array<() => DemoRecord[]> {
    const list: Array<() => DemoRecord[]> = [
      () => this.wireUnit({ source: 'delta', outlets: 4, aggregator: true, vertical: 'news' }),
      () => this.pressUnit({ company: 0, release: 0, reports: 2, newsroom: true }),
      () => this.plainUnit({ undated: true }),
    ];
    for (const vertical of VERTICALS) list.push(() => this.plainUnit({ vertical: vertical, lang: 'en' }));
    list.push(
      () => this.plainUnit({ vertical: 'code', host: hostNamed('github.com'), contentType: 'code' }),
      () => this.plainUnit({ vertical: 'code', host: hostNamed('doc.rust-lang.org'), contentType: 'docs' }),
    );
    for (const lang of ['de', 'fr', 'es'] as const) list.push(() => this.plainUnit({ lang, setLang: true }));
    list.push(
      () => this.plainUnit({ explicit: true }),
      () => this.plainUnit({ risk: 'instruction', lang: 'en' }),
      () => this.plainUnit({ risk: 'hidden', lang: 'en' }),
      () => this.plainUnit({ risk: 'role', lang: 'en' }),
      () => this.plainUnit({ bucket: 'spam', lang: 'en' }),
      () => this.plainUnit({ source: 'delta', recent: true }),
      () => this.passageGroupUnit(),
      () => this.reportUnit({ republish: true, aggregator: true }),
      () => this.mirrorUnit(),
      () => this.wireUnit({ source: 'cc', vertical: 'finance' }),
      () => this.recrawlUnit(true),
    );
    for (const reason of DEMO_REMOVAL_REASONS) list.push(() => this.removalUnit(reason));
    return list;
  }

  // ---------------------------------------------------------------- time

  private fetchTime(source: SourceName, recent = false): number {
    const random = this.random;
    if (source === 'delta') {
      if (recent || random.chance(0.3)) return this.now - random.range(300, DAY);
      return this.now - random.range(DAY, 30 * DAY);
    }
    return this.now - random.range(35 * DAY, 730 * DAY);
  }

  private publishedBefore(fetched: number, style: Style): number {
    const random = this.random;
    let lag: number;
    switch (style) {
      case 'news':
        lag = Math.min(5 * DAY, Math.floor(random.exponential(8 * HOUR)));
        break;
      case 'docs':
      case 'reference':
      case 'academic':
      case 'document':
      case 'code':
        lag = random.chance(0.35) ? random.range(180 * DAY, 6 * YEAR) : random.range(HOUR, 180 * DAY);
        break;
      case 'ugc':
        lag = Math.floor(random.exponential(60 * DAY));
        break;
      default:
        lag = Math.floor(random.exponential(15 * DAY));
    }
    return fetched - lag;
  }

  /** Publication instant of a story's first member. */
  private storyTime(source: SourceName): number {
    const random = this.random;
    if (source === 'delta') return random.chance(0.3) ? this.now - random.range(7 * HOUR, 30 * HOUR) : this.now - random.range(30 * HOUR, 29 * DAY);
    return this.now - random.range(40 * DAY, 725 * DAY);
  }

  /** Crawl instant after a publication, consistent with the source. */
  private fetchAfter(published: number, source: SourceName): number {
    const random = this.random;
    if (source === 'delta') return Math.max(published, Math.min(this.now - 1, published + random.range(60, 36 * HOUR)));
    return Math.max(published, Math.min(this.now - 31 * DAY, published + random.range(HOUR, 60 * DAY)));
  }

  private sourceOf(fetched: number): SourceName {
    return fetched >= this.now - 30 * DAY ? 'delta' : 'cc';
  }

  private capPublished(instant: number): number {
    return Math.min(instant, this.now - 60);
  }

  // ---------------------------------------------------------------- hosts and text

  private pickHost(vertical: Vertical, lang: Lang, bucket?: Bucket): HostInfo {
    const random = this.random;
    const hostsByBucket = HOST_INDEX[lang][vertical];
    if (lang !== 'en') {
      const allHosts = BUCKETS.flatMap((b) => hostsByBucket[b]);
      return random.pick(allHosts);
    }
    let chosenBucket = bucket ?? random.pickWeighted(BUCKETS, CUMULATIVE_BUCKET_WEIGHTS[vertical]);
    if (hostsByBucket[chosenBucket].length === 0) chosenBucket = 'secondary';
    return random.pickSkewed(hostsByBucket[chosenBucket], 1.5);
  }

  private textContext(vocabulary: Vocabulary, subject: Subject, host: HostInfo, style: Style, instant: number): TextContext {
    return { vocabulary, subject: subject.phrase, plural: subject.plural, host: host.host, year: new Date(instant * 1000).getUTCFullYear(), style };
  }

  private paragraphs(context: TextContext, count: number, firstPrefix = ''): Paragraph[] {
    const written: Paragraph[] = [];
    for (let i = 0; i < count; i++) written.push(this.textGenerator.paragraph(context, i === 0 ? firstPrefix : ''));
    return written;
  }

  /** Append a sentence to a paragraph when it stays within the word limit. */
  private appendTo(paragraph: Paragraph, sentence: string, atStart = false): Paragraph | null {
    const words = countWords(sentence);
    if (paragraph.words + words > MAX_WORDS) return null;
    return { text: atStart ? `${sentence} ${paragraph.text}` : `${paragraph.text} ${sentence}`, words: paragraph.words + words };
  }

  /** Put a sentence into the shortest paragraph (copy-on-write). */
  private insertSentence(paragraphs: Paragraph[], sentence: string, atStart = false): boolean {
    let best = 0;
    for (let i = 1; i < paragraphs.length; i++) if (paragraphs[i].words < paragraphs[best].words) best = i;
    const next = this.appendTo(paragraphs[best], sentence, atStart && this.random.chance(0.5));
    if (!next) return false;
    paragraphs[best] = next;
    return true;
  }

  private zeroWidth(sentence: string): string {
    // Zero-width characters inside the first words: invisible to a reader, still in the text.
    const words = sentence.split(' ');
    for (let i = 0; i < Math.min(3, words.length); i++) words[i] = words[i].split('').join('\u200b');
    return `\u2060${words.join(' ')}\u200c`;
  }

  private riskSentence(kind: 'instruction' | 'hidden' | 'role', context: TextContext): string {
    const random = this.random;
    if (kind === 'instruction') return this.textGenerator.fill(compile(random.pick(INSTRUCTION_SENTENCES)), context);
    if (kind === 'role') return this.textGenerator.fill(compile(random.pick(ROLE_MARKER_SENTENCES)), context);
    if (random.chance(0.5)) return this.zeroWidth(this.textGenerator.fill(compile(random.pick(INSTRUCTION_SENTENCES)), context));
    return this.textGenerator.fill(compile(random.pick(HIDDEN_MARKUP_SENTENCES)), context);
  }

  private pickParagraphCount(): number {
    return this.random.pickWeighted(PARAGRAPH_COUNTS, CUMULATIVE_PARAGRAPH_WEIGHTS);
  }

  // ---------------------------------------------------------------- URLs and links

  private nextId(): string {
    return (++this.sequence).toString(36);
  }

  private pathFor(host: HostInfo, title: string, contentType: ContentTypeName, vertical: Vertical, instant: number, subject: Subject): string {
    const slug = slugify(title);
    const date = new Date(instant * 1000);
    const year = date.getUTCFullYear();
    const month = String(date.getUTCMonth() + 1).padStart(2, '0');
    const day = String(date.getUTCDate()).padStart(2, '0');
    const id = this.nextId();
    switch (host.kind) {
      case 'news':
      case 'wire':
      case 'aggregator':
        return `/${vertical}/${year}/${month}/${day}/${slug}-${id}`;
      case 'releasewire':
        return `/news-releases/${slug}-${id}.html`;
      case 'newsroom':
        return `/press/${year}/${slug}-${id}`;
      case 'docs':
        return `/docs/${slugify(subject.phrase)}/${slug}-${id}.html`;
      case 'academic':
        return `/abs/${String(year).slice(2)}${month}.${id}`;
      case 'code': {
        const org = slugify(this.random.pick(LAST_NAMES));
        return contentType === 'code' ? `/${org}/${slugify(subject.phrase)}-${id}` : `/${org}/${slugify(subject.phrase)}-${id}/wiki/${slug}`;
      }
      case 'qa':
        return `/questions/${this.sequence}/${slug}`;
      case 'forum':
      case 'adult':
        return `/t/${slug}/${this.sequence}`;
      case 'social':
        return `/@${this.random.pick(FIRST_NAMES).toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '')}${this.random.below(1000)}/post/${id}`;
      case 'video':
        return `/watch/${id}-${slug}`;
      case 'reference':
        return `/wiki/${slug}-${id}`;
      case 'gov':
      case 'edu':
      case 'court':
      case 'regulator': {
        const section = contentType === 'news' ? 'news' : contentType === 'how-to' ? 'guidance' : contentType === 'academic' ? 'research' : 'publications';
        return `/${section}/${slug}-${id}`;
      }
      case 'magazine':
        return contentType === 'how-to' && vertical === 'cooking' ? `/recipes/${slug}-${id}/` : `/${year}/${month}/${slug}-${id}/`;
      default:
        return `/${slug}-${id}.html`;
    }
  }

  private registerHub(vertical: Vertical, url: string, weight: number): void {
    let verticalHubs = this.hubsByVertical.get(vertical);
    if (!verticalHubs) {
      verticalHubs = { urls: [], weights: [], cumulativeWeights: [] };
      this.hubsByVertical.set(vertical, verticalHubs);
    }
    verticalHubs.urls.push(url);
    verticalHubs.weights.push(weight);
    verticalHubs.cumulativeWeights = cumulative(verticalHubs.weights);
    this.allHubs.urls.push(url);
    this.allHubs.weights.push(weight);
    this.allHubs.cumulativeWeights = cumulative(this.allHubs.weights);
  }

  private linksFor(vertical: Vertical, self: string): string[] | undefined {
    const random = this.random;
    if (!random.chance(0.7)) return undefined;
    const count = 1 + random.below(5);
    const hubs = this.hubsByVertical.get(vertical);
    const recent = this.recentByVertical.get(vertical);
    const links: string[] = [];
    for (let i = 0; i < count; i++) {
      const roll = random.next();
      let url: string | undefined;
      if (roll < 0.6 && hubs && hubs.urls.length) url = random.pickWeighted(hubs.urls, hubs.cumulativeWeights);
      else if (roll < 0.75 && this.allHubs.urls.length) url = random.pickWeighted(this.allHubs.urls, this.allHubs.cumulativeWeights);
      else if (recent && recent.length) url = random.pick(recent);
      if (url && url !== self && !links.includes(url)) links.push(url);
    }
    return links.length ? links : undefined;
  }

  // ---------------------------------------------------------------- records

  private buildRecord(spec: PageSpec, url: string): DemoPageRecord {
    const random = this.random;
    const host = spec.host;
    const record: DemoPageRecord = {} as DemoPageRecord;
    if (spec.id) record.id = spec.id;
    record.url = url;
    record.title = spec.title;
    record.text = spec.paragraphs.map((p) => p.text).join('\n\n');
    record.fetched_at = spec.fetched;
    if (spec.published !== undefined) record.published_at = spec.published;
    const source = this.sourceOf(spec.fetched);
    if (source === 'delta' || random.chance(0.92)) record.source = source;
    if (random.chance(spec.vocabulary.lang === 'en' ? 0.45 : 0.7)) record.lang = spec.vocabulary.lang;
    if (random.chance(0.92)) record.vertical = spec.vocabulary.vertical;
    if (random.chance(0.88)) record.content_type = spec.contentType;
    if (random.chance(0.7)) record.authority = authorityOf(host);
    if (spec.explicit) record.safety = 'explicit';
    else if (random.chance(0.8)) record.safety = 'safe';
    if (random.chance(0.9)) record.host_rank = host.rank;
    if (random.chance(0.85)) {
      const quality = host.kind === 'spam' ? random.range(5, 30) : Math.round(host.rank * 70 + random.next() * 30 - 5);
      record.quality = Math.max(0, Math.min(100, quality));
    }
    if (random.chance(0.75) && spec.subject.topics.length) record.topics = spec.subject.topics.slice();
    const links = this.linksFor(spec.vocabulary.vertical, url);
    if (links) record.links = links;
    if (host.owner && random.chance(0.5)) record.owner = host.owner;
    return record;
  }

  /** Account for an emitted page record and remember it for later units. */
  private emit(spec: PageSpec, options: { pool?: boolean; hub?: number; url?: string } = {}): DemoPageRecord {
    const path = options.url ? '' : spec.path ?? this.pathFor(spec.host, spec.title, spec.contentType, spec.vocabulary.vertical, spec.published ?? spec.fetched, spec.subject);
    const url = options.url ?? `https://${spec.host.host}${path}`;
    const record = this.buildRecord(spec, url);
    this.remaining -= spec.paragraphs.length;
    this.stats.passages += spec.paragraphs.length;
    if (spec.id) this.stats.passageRecords++;
    else this.stats.pages++;
    const vertical = spec.vocabulary.vertical;
    let recentUrls = this.recentByVertical.get(vertical);
    if (!recentUrls) {
      recentUrls = [];
      this.recentByVertical.set(vertical, recentUrls);
    }
    if (recentUrls.length < 64) recentUrls.push(url);
    else recentUrls[this.random.below(64)] = url;
    if (options.hub !== undefined) this.registerHub(vertical, url, options.hub);
    if (!spec.id && !options.url) {
      const emitted: EmittedPage = { record, host: spec.host, path, paragraphs: spec.paragraphs, vocabulary: spec.vocabulary, subject: spec.subject, style: styleOf(spec.contentType), contentType: spec.contentType };
      this.remember(this.recentPages, emitted, 64);
      if (spec.host.kind === 'news' || spec.host.kind === 'magazine') this.remember(this.recentNews, emitted, 64);
      if (options.pool !== false) {
        const roll = this.random.next();
        if (roll < 0.05 && record.fetched_at < this.now - 3600) this.remember(this.recrawlPool, emitted, 400);
        else if (roll < 0.09) {
          const item = { url, fetched: record.fetched_at, lowTrust: spec.host.lowTrust };
          if (this.removalPool.length < 2000) this.removalPool.push(item);
          else this.removalPool[this.random.below(2000)] = item;
        }
      }
    }
    return record;
  }

  private remember(list: EmittedPage[], page: EmittedPage, capacity: number): void {
    if (list.length < capacity) list.push(page);
    else list[this.random.below(capacity)] = page;
  }

  // ---------------------------------------------------------------- units

  private hubPages(): DemoRecord[] {
    const records: DemoRecord[] = [];
    for (const [name, weight] of HUB_WEIGHTS) {
      const host = hostNamed(name);
      for (let i = 0; i < 2 && this.remaining > 0; i++) {
        const vertical = host.verticals[i % host.verticals.length];
        records.push(
          ...this.plainUnit({ host, vertical, lang: 'en', source: 'cc', hub: weight, paragraphs: 2 + this.random.below(3), risk: 'none' }),
        );
      }
    }
    return records;
  }

  private plainUnit(
    options: {
      vertical?: Vertical;
      lang?: Lang;
      setLang?: boolean;
      host?: HostInfo;
      bucket?: Bucket;
      explicit?: boolean;
      risk?: 'instruction' | 'hidden' | 'role' | 'none';
      source?: SourceName;
      recent?: boolean;
      undated?: boolean;
      hub?: number;
      paragraphs?: number;
      contentType?: ContentTypeName;
    } = {},
  ): DemoRecord[] {
    const random = this.random;
    const lang: Lang = options.lang ?? (options.host ? options.host.lang : random.chance(0.07) ? random.pick(['de', 'fr', 'es'] as const) : 'en');
    const explicit = options.explicit ?? (lang === 'en' && !options.host && random.chance(0.025));
    let vertical: Vertical;
    if (options.vertical) vertical = options.vertical;
    else if (lang === 'en') vertical = random.pickWeighted(VERTICALS, CUMULATIVE_VERTICAL_WEIGHTS);
    else vertical = random.pick(verticalsOf(lang));
    let host: HostInfo;
    if (options.host) host = options.host;
    else if (explicit) host = random.chance(0.7) ? random.pick(ADULT_HOSTS) : this.pickHost(vertical, 'en', 'ugc');
    else host = this.pickHost(vertical, lang, options.bucket);
    const vocabulary = vocabularyFor(lang, vertical);
    const subject = random.pick(vocabulary.subjects);
    const contentType = options.contentType ?? random.pick(host.types);
    const style = styleOf(contentType);
    const source: SourceName = options.source ?? (random.chance(0.2) ? 'delta' : 'cc');
    const fetched = this.fetchTime(source, options.recent);
    const undated = options.undated ?? (options.recent ? false : random.chance(0.15));
    const published = undated ? undefined : options.recent ? fetched - random.range(60, 12 * HOUR) : this.publishedBefore(fetched, style);
    const paragraphCount = Math.max(1, Math.min(options.paragraphs ?? this.pickParagraphCount(), this.remaining));
    const context = this.textContext(vocabulary, subject, host, style, published ?? fetched);
    const paragraphs = this.paragraphs(context, paragraphCount);
    if (explicit) this.insertSentence(paragraphs, random.pick(EXPLICIT_SENTENCES), true);
    let risk = options.risk;
    if (risk === undefined && lang === 'en') {
      const riskChance = host.kind === 'spam' ? 0.35 : host.role === 'ugc' ? 0.05 : 0.004;
      if (random.chance(riskChance)) risk = random.pickWeighted(['instruction', 'hidden', 'role'] as const, [45, 75, 100]);
    }
    if (risk && risk !== 'none') this.insertSentence(paragraphs, this.riskSentence(risk, context), true);
    const title = this.textGenerator.title(context);
    const spec: PageSpec = { host, vocabulary, subject, contentType, fetched, published, paragraphs, title, explicit };
    const record = this.emit(spec, { hub: options.hub, pool: options.hub === undefined });
    if (options.setLang) record.lang = lang;
    return [record];
  }

  private pickOutlets(count: number, vertical: Vertical, exclude: HostInfo[] = []): HostInfo[] {
    const random = this.random;
    const chosen: HostInfo[] = [];
    if (count >= 2 && random.chance(0.6)) {
      // Two outlets of one media group (shared owner), when a group covers the vertical.
      const groups = GROUPS_BY_VERTICAL.get(vertical) ?? [];
      if (groups.length) chosen.push(...random.sample(random.pick(groups), 2).filter((host) => !exclude.includes(host)));
    }
    const fitting = NEWS_OUTLETS.filter((host) => host.verticals.includes(vertical) && !chosen.includes(host) && !exclude.includes(host));
    const rest = NEWS_OUTLETS.filter((host) => !fitting.includes(host) && !chosen.includes(host) && !exclude.includes(host));
    for (const host of random.sample(fitting, count - chosen.length)) chosen.push(host);
    if (chosen.length < count) chosen.push(...random.sample(rest, count - chosen.length));
    return chosen.slice(0, count);
  }

  private dateParts(instant: number): { month: string; day: number; year: number } {
    const date = new Date(instant * 1000);
    return { month: MONTHS[date.getUTCMonth()], day: date.getUTCDate(), year: date.getUTCFullYear() };
  }

  private person(): string {
    return `${this.random.pick(FIRST_NAMES)} ${this.random.pick(LAST_NAMES)}`;
  }

  /** A wire story and the outlets (3-6) that carry it with small edits, minutes to hours later. */
  private wireUnit(options: { vertical?: Vertical; source?: SourceName; outlets?: number; aggregator?: boolean } = {}): DemoRecord[] {
    const random = this.random;
    const wire: WireService = random.pick(WIRES);
    const vertical = options.vertical ?? random.pickWeighted(STORY_VERTICALS, CUMULATIVE_STORY_WEIGHTS);
    const outletCount = options.outlets ?? random.range(3, 6);
    const withAggregator = options.aggregator ?? random.chance(0.35);
    const members = 1 + outletCount + (withAggregator ? 1 : 0);
    let paragraphCount = random.range(2, 5);
    if (members * paragraphCount > this.remaining) paragraphCount = Math.floor(this.remaining / members);
    if (paragraphCount < 1) return this.plainUnit();
    const vocabulary = ENGLISH_VOCABULARY[vertical];
    const subject = random.pick(vocabulary.subjects);
    const source: SourceName = options.source ?? (random.chance(0.22) ? 'delta' : 'cc');
    const storyStart = this.storyTime(source);
    const context = this.textContext(vocabulary, subject, wire.host, 'news', storyStart);
    const city = random.pick(CITIES);
    const date = this.dateParts(storyStart);
    const dateline =
      wire.style === 'short' ? `${city.toUpperCase()} (${wire.abbr}) — ` : `${city.toUpperCase()}, ${date.month} ${date.day} (${wire.name}) - `;
    const paragraphs = this.paragraphs(context, paragraphCount, dateline);
    if (random.chance(0.5)) {
      const extended = this.appendTo(paragraphs[paragraphCount - 1], `${wire.name} writer ${this.person()} in ${random.pick(CITIES)} contributed to this report.`);
      if (extended) paragraphs[paragraphCount - 1] = extended;
    }
    const title = this.textGenerator.title(context);
    const records: DemoRecord[] = [];
    const base = { vocabulary, subject, contentType: 'news' as ContentTypeName };
    records.push(this.emit({ ...base, host: wire.host, fetched: this.fetchAfter(storyStart, source), published: storyStart, paragraphs, title }));
    const outlets = this.pickOutlets(outletCount, vertical);
    const offsets = outlets.map(() => random.range(120, 6 * HOUR)).sort((a, b) => a - b);
    outlets.forEach((outlet, i) => {
      const carried = paragraphs.slice();
      const roll = random.next();
      const outletTitle = roll < 0.4 ? title : roll < 0.7 ? this.textGenerator.title(context) : `${title} | ${outlet.name}`;
      if (random.chance(0.6)) {
        const addition = random.pick([`This story has been updated with additional details.`, `${outlet.name} staff contributed to this report.`, this.textGenerator.bodySentence(context)]);
        const extended = this.appendTo(carried[paragraphCount - 1], addition);
        if (extended) carried[paragraphCount - 1] = extended;
      }
      if (paragraphCount > 2 && random.chance(0.25)) {
        const editedIndex = 1 + random.below(paragraphCount - 2);
        const extended = this.appendTo(carried[editedIndex], this.textGenerator.bodySentence(context));
        if (extended) carried[editedIndex] = extended;
      }
      const published = this.capPublished(storyStart + offsets[i]);
      const undated = random.chance(0.03);
      records.push(
        this.emit({ ...base, host: outlet, fetched: this.fetchAfter(published, source), published: undated ? undefined : published, paragraphs: carried, title: outletTitle }),
      );
    });
    if (withAggregator) {
      const aggregator = random.pick(AGGREGATORS);
      const carried = paragraphs.slice();
      const extended = this.appendTo(carried[paragraphCount - 1], `Source: ${wire.name}.`);
      if (extended) carried[paragraphCount - 1] = extended;
      const published = this.capPublished(storyStart + random.range(10 * 60, 8 * HOUR));
      records.push(this.emit({ ...base, host: aggregator, fetched: this.fetchAfter(published, source), published: random.chance(0.4) ? undefined : published, paragraphs: carried, title }));
    }
    return records;
  }

  /** A press release on a release wire, its copy in the company newsroom, and news reports about it. */
  private pressUnit(options: { company?: number; release?: number; reports?: number; newsroom?: boolean; source?: SourceName } = {}): DemoRecord[] {
    const random = this.random;
    const company = options.company !== undefined ? COMPANIES[options.company] : random.pick(COMPANIES);
    const release = options.release !== undefined ? company.releases[options.release] : random.pick(company.releases);
    const subject = parseSubject(release.subject);
    const vocabulary = ENGLISH_VOCABULARY[company.vertical];
    const releaseWire = random.pick(RELEASE_WIRES);
    const newsroom = hostNamed(company.newsroom);
    let withNewsroom = options.newsroom ?? random.chance(0.6);
    let releaseParagraphs = random.range(3, 5);
    const reportParagraphCounts: number[] = [];
    for (let i = 0, reportCount = options.reports ?? random.range(1, 3); i < reportCount; i++) reportParagraphCounts.push(random.range(2, 4));
    const total = () => releaseParagraphs * (withNewsroom ? 2 : 1) + reportParagraphCounts.reduce((sum, count) => sum + count, 0);
    while (total() > this.remaining && reportParagraphCounts.length) reportParagraphCounts.pop();
    if (total() > this.remaining) withNewsroom = false;
    if (total() > this.remaining) releaseParagraphs = this.remaining;
    if (releaseParagraphs < 3) return this.plainUnit();
    const source: SourceName = options.source ?? (random.chance(0.22) ? 'delta' : 'cc');
    const storyStart = this.storyTime(source);
    const date = this.dateParts(storyStart);
    const context = this.textContext(vocabulary, subject, releaseWire, 'news', storyStart);
    const city = company.city.split(',')[0].toUpperCase();
    const lead = `FOR IMMEDIATE RELEASE. ${city}, ${date.month} ${date.day}, ${date.year} /${releaseWire.name}/ -- ${company.name} (${company.exchange}: ${company.ticker}), ${company.industry}, today announced that it has ${release.action}.`;
    const paragraphs: Paragraph[] = [this.textGenerator.paragraph(context, lead + ' ')];
    for (let i = 1; i < releaseParagraphs - 1; i++) {
      const quote = this.textGenerator.sentence(random.pick(COMPILED_QUOTES), context);
      paragraphs.push(this.textGenerator.paragraph(context, `“${quote},” said ${this.person()}, ${random.pick(['chief executive officer', 'chief scientific officer', 'president', 'head of product'])} of ${company.name}. `));
    }
    const about = `About ${company.name}: ${company.name} is ${company.industry} headquartered in ${company.city}. The company works with ${random.pick(vocabulary.actors)} and partners in more than ${random.range(5, 60)} countries. For more information, visit https://${company.newsroom}. Media contact: ${this.person()}, Director of Communications, ${company.name}, press@${company.domain}, +1 555 01${String(random.range(10, 99))}. Forward-looking statements in this release involve risks and uncertainties.`;
    paragraphs.push({ text: about, words: countWords(about) });
    const records: DemoRecord[] = [];
    const base = { vocabulary, subject };
    records.push(this.emit({ ...base, host: releaseWire, contentType: 'news', fetched: this.fetchAfter(storyStart, source), published: storyStart, paragraphs, title: release.headline }));
    if (withNewsroom) {
      const published = this.capPublished(storyStart + random.range(0, 2 * HOUR));
      records.push(
        this.emit({ ...base, host: newsroom, contentType: random.pick(['news', 'document'] as const), fetched: this.fetchAfter(published, source), published, paragraphs: paragraphs.slice(), title: release.headline }),
      );
    }
    const outlets = this.pickOutlets(reportParagraphCounts.length, company.vertical);
    outlets.forEach((outlet, i) => {
      const reportContext = this.textContext(vocabulary, subject, outlet, 'news', storyStart);
      const reportLead = `${company.name} said on ${random.pick(WEEKDAYS)} that it had ${release.action}, according to a press release distributed by ${releaseWire.name}.`;
      const reportParagraphs = this.paragraphs(reportContext, reportParagraphCounts[i], reportLead + ' ');
      const shareMove = `Shares of ${company.name} ${random.chance(0.6) ? 'rose' : 'fell'} ${random.range(1, 12)} percent in early trading after the announcement.`;
      this.insertSentence(reportParagraphs, shareMove);
      const published = this.capPublished(storyStart + random.range(30 * 60, 10 * HOUR));
      const title = random.chance(0.5) ? capitalize(`${company.name} ${release.action}`) : this.textGenerator.title(reportContext);
      records.push(this.emit({ ...base, host: outlet, contentType: 'news', fetched: this.fetchAfter(published, source), published, paragraphs: reportParagraphs, title }));
    });
    return records;
  }

  /** Original reporting by one outlet, optionally republished verbatim elsewhere and picked up by an aggregator. */
  private reportUnit(options: { republish?: boolean; aggregator?: boolean } = {}): DemoRecord[] {
    const random = this.random;
    const vertical = random.pickWeighted(STORY_VERTICALS, CUMULATIVE_STORY_WEIGHTS);
    const [outlet] = this.pickOutlets(1, vertical);
    const republish = options.republish ?? random.chance(0.5);
    const withAggregator = options.aggregator ?? random.chance(0.5);
    const members = 1 + (republish ? 1 : 0) + (withAggregator ? 1 : 0);
    let paragraphCount = random.range(2, 5);
    if (members * paragraphCount > this.remaining) paragraphCount = Math.floor(this.remaining / members);
    if (paragraphCount < 1) return this.plainUnit();
    const vocabulary = ENGLISH_VOCABULARY[vertical];
    const subject = random.pick(vocabulary.subjects);
    const source: SourceName = random.chance(0.22) ? 'delta' : 'cc';
    const storyStart = this.storyTime(source);
    const context = this.textContext(vocabulary, subject, outlet, 'news', storyStart);
    const paragraphs = this.paragraphs(context, paragraphCount, random.chance(0.5) ? `By ${this.person()}. ` : '');
    const title = this.textGenerator.title(context);
    const base = { vocabulary, subject, contentType: 'news' as ContentTypeName };
    const records: DemoRecord[] = [this.emit({ ...base, host: outlet, fetched: this.fetchAfter(storyStart, source), published: storyStart, paragraphs, title })];
    if (republish) {
      const [other] = this.pickOutlets(1, vertical, [outlet]);
      const published = this.capPublished(storyStart + random.range(3 * HOUR, 5 * DAY));
      records.push(this.emit({ ...base, host: other, fetched: this.fetchAfter(published, source), published, paragraphs: paragraphs.slice(), title }));
    }
    if (withAggregator) {
      const aggregator = random.pick(AGGREGATORS);
      const copy = paragraphs.slice();
      const extended = this.appendTo(copy[paragraphCount - 1], `Source: ${outlet.name}.`);
      if (extended) copy[paragraphCount - 1] = extended;
      const published = this.capPublished(storyStart + random.range(15 * 60, 12 * HOUR));
      records.push(this.emit({ ...base, host: aggregator, fetched: this.fetchAfter(published, source), published: random.chance(0.4) ? undefined : published, paragraphs: copy, title }));
    }
    return records;
  }

  /** A page delivered as 1-3 passage records (`id` = page:no) instead of a page to split. */
  private passageGroupUnit(): DemoRecord[] {
    const random = this.random;
    const passageCount = Math.min(random.range(1, 3), this.remaining);
    const vertical = random.pickWeighted(VERTICALS, CUMULATIVE_VERTICAL_WEIGHTS);
    const host = this.pickHost(vertical, 'en');
    const vocabulary = ENGLISH_VOCABULARY[vertical];
    const subject = random.pick(vocabulary.subjects);
    const contentType = random.pick(host.types);
    const style = styleOf(contentType);
    const source: SourceName = random.chance(0.2) ? 'delta' : 'cc';
    const fetched = this.fetchTime(source);
    const published = random.chance(0.15) ? undefined : this.publishedBefore(fetched, style);
    const context = this.textContext(vocabulary, subject, host, style, published ?? fetched);
    const title = this.textGenerator.title(context);
    const pageId = `p${random.uint32().toString(16).padStart(8, '0')}${(this.sequence & 0xffff).toString(16).padStart(4, '0')}`;
    const path = this.pathFor(host, title, contentType, vertical, published ?? fetched, subject);
    const records: DemoRecord[] = [];
    for (let i = 0; i < passageCount; i++) {
      const paragraphs = [this.textGenerator.paragraph(context)];
      records.push(this.emit({ host, vocabulary, subject, contentType, fetched, published, paragraphs, title, path, id: `${pageId}:${i}` }));
    }
    return records;
  }

  /** An exact redundant copy of a recent page at a second URL on a mirror host. */
  private mirrorUnit(): DemoRecord[] {
    const random = this.random;
    if (!this.recentPages.length) return this.plainUnit();
    const original = random.pick(this.recentPages);
    if (original.paragraphs.length > this.remaining) return this.plainUnit();
    const start = random.below(MIRROR_HOSTS.length);
    let mirror: HostInfo | undefined;
    let url = '';
    for (let i = 0; i < MIRROR_HOSTS.length && !mirror; i++) {
      const candidate = MIRROR_HOSTS[(start + i) % MIRROR_HOSTS.length];
      url = `https://${candidate.host}/${original.host.host}${original.path}`;
      if (!this.mirrorUrls.has(url)) mirror = candidate;
    }
    if (!mirror) return this.plainUnit();
    this.mirrorUrls.add(url);
    const fetched = Math.min(this.now - 60, original.record.fetched_at + random.range(HOUR, 120 * DAY));
    if (fetched <= original.record.fetched_at) return this.plainUnit();
    const spec: PageSpec = {
      host: mirror,
      vocabulary: original.vocabulary,
      subject: original.subject,
      contentType: original.contentType,
      fetched,
      published: original.record.published_at,
      paragraphs: original.paragraphs,
      title: original.record.title,
      explicit: original.record.safety === 'explicit',
    };
    return [this.emit(spec, { url, pool: false })];
  }

  /** A later identical copy of a recent article at another outlet. */
  private republishUnit(): DemoRecord[] {
    const random = this.random;
    if (!this.recentNews.length) return this.plainUnit();
    const original = random.pick(this.recentNews);
    if (original.paragraphs.length > this.remaining || original.vocabulary.lang !== 'en') return this.plainUnit();
    const [other] = this.pickOutlets(1, original.vocabulary.vertical, [original.host]);
    const basis = original.record.published_at ?? original.record.fetched_at;
    const published = this.capPublished(basis + random.range(2 * HOUR, 20 * DAY));
    const fetched = Math.min(this.now - 1, Math.max(published, original.record.fetched_at) + random.range(60, 10 * DAY));
    const spec: PageSpec = {
      host: other,
      vocabulary: original.vocabulary,
      subject: original.subject,
      contentType: original.contentType,
      fetched,
      published: original.record.published_at === undefined ? undefined : published,
      paragraphs: original.paragraphs,
      title: original.record.title,
    };
    return [this.emit(spec, { pool: false })];
  }

  /** The same URL crawled again later, with changed text. */
  private recrawlUnit(force = false): DemoRecord[] {
    const random = this.random;
    if (!this.recrawlPool.length && force && this.recentPages.length) this.recrawlPool.push(this.recentPages[this.recentPages.length - 1]);
    if (!this.recrawlPool.length) return this.plainUnit();
    const index = random.below(this.recrawlPool.length);
    const page = this.recrawlPool[index];
    this.recrawlPool[index] = this.recrawlPool[this.recrawlPool.length - 1];
    this.recrawlPool.pop();
    const previousFetch = page.record.fetched_at;
    if (previousFetch >= this.now - 120) return this.plainUnit();
    const span = this.now - 60 - previousFetch;
    const fetched = previousFetch + Math.max(1, Math.floor(span * Math.pow(random.next(), 0.7)));
    const context = this.textContext(page.vocabulary, page.subject, page.host, page.style, page.record.published_at ?? previousFetch);
    const paragraphs = page.paragraphs.slice();
    const replaced = random.below(paragraphs.length);
    paragraphs[replaced] = this.textGenerator.paragraph(context);
    if (random.chance(0.3) && paragraphs.length < this.remaining) paragraphs.push(this.textGenerator.paragraph(context));
    if (paragraphs.length > this.remaining) return this.plainUnit();
    if (page.vocabulary.lang === 'en' && random.chance(0.5)) this.insertSentence(paragraphs, this.textGenerator.fill(UPDATE_NOTICE, context), true);
    const title = random.chance(0.3) && page.vocabulary.lang === 'en' ? `Updated: ${page.record.title}` : page.record.title;
    const spec: PageSpec = {
      host: page.host,
      vocabulary: page.vocabulary,
      subject: page.subject,
      contentType: page.contentType,
      fetched,
      published: page.record.published_at,
      paragraphs,
      title,
      explicit: page.record.safety === 'explicit',
    };
    return [this.emit(spec, { url: page.record.url, pool: false })];
  }

  /** A removal event for a page emitted earlier. */
  private removalUnit(reason?: DemoRemovalReason): DemoRecord[] {
    const random = this.random;
    const pool = this.removalPool;
    if (!pool.length && reason) {
      // Scripted removals: fall back to a recent page that is not waiting for a re-crawl.
      const candidates = this.recentPages.filter((page) => !this.recrawlPool.includes(page) && !this.removedUrls.has(page.record.url));
      if (candidates.length) {
        const page = random.pick(candidates);
        pool.push({ url: page.record.url, fetched: page.record.fetched_at, lowTrust: page.host.lowTrust });
      }
    }
    if (!pool.length) return [];
    const removalReason: DemoRemovalReason =
      reason ?? (this.removalCount < DEMO_REMOVAL_REASONS.length ? DEMO_REMOVAL_REASONS[this.removalCount] : random.pickWeighted(DEMO_REMOVAL_REASONS, [30, 50, 65, 100]));
    let index = random.below(pool.length);
    for (let tries = 0; tries < 8; tries++) {
      const candidate = pool[index];
      if (removalReason === 'stale' && candidate.fetched < this.now - 300 * DAY) break;
      if (removalReason === 'tombstoned-source' && candidate.lowTrust) break;
      if (removalReason !== 'stale' && removalReason !== 'tombstoned-source') break;
      index = random.below(pool.length);
    }
    const item = pool[index];
    pool[index] = pool[pool.length - 1];
    pool.pop();
    this.removalCount++;
    this.stats.removals++;
    this.removedUrls.add(item.url);
    const removedAt = Math.min(this.now, item.fetched + random.range(HOUR, 200 * DAY));
    return [{ url: item.url, removed: removalReason, removed_at: Math.max(item.fetched + 1, removedAt) }];
  }
}

/** Generate the demo corpus as a stream of JSON-serialisable records. */
export function* generateDemoCorpus(options: DemoCorpusOptions): Generator<DemoRecord> {
  yield* new DemoCorpusGenerator(options).records();
}
