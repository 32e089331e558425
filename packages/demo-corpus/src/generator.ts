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
import { Rng, cumulative } from './prng.js';
import {
  TextGen,
  capitalize,
  countWords,
  parseSubject,
  styleOf,
  verticalsOf,
  vocFor,
  VOC_EN,
  type Ctx,
  type Para,
  type Style,
  type Subject,
  type Voc,
} from './text.js';
import {
  REMOVAL_REASONS,
  VERTICALS,
  type Authority,
  type ContentType,
  type DemoPageRecord,
  type DemoRecord,
  type Lang,
  type RemovalReason,
  type Source,
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

type Bucket = 'official' | 'primary' | 'secondary' | 'aggregator' | 'ugc' | 'spam';
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
const BUCKET_CUMS: Record<Vertical, number[]> = Object.fromEntries(
  VERTICALS.map((v) => [v, cumulative(BUCKET_WEIGHTS[v] ?? DEFAULT_BUCKET_WEIGHTS)]),
) as Record<Vertical, number[]>;

function bucketOf(h: HostInfo): Bucket | null {
  switch (h.kind) {
    case 'wire':
    case 'releasewire':
    case 'mirror':
    case 'adult':
      return null; // only used by stories, copies and explicit pages
    case 'spam':
      return 'spam';
    default:
      return h.role;
  }
}

/** lang -> vertical -> bucket -> hosts, for plain pages. */
const HOST_INDEX: Record<Lang, Record<Vertical, Record<Bucket, HostInfo[]>>> = (() => {
  const idx = {} as Record<Lang, Record<Vertical, Record<Bucket, HostInfo[]>>>;
  for (const lang of ['en', 'de', 'fr', 'es'] as const) {
    idx[lang] = {} as Record<Vertical, Record<Bucket, HostInfo[]>>;
    for (const v of VERTICALS) {
      const b = {} as Record<Bucket, HostInfo[]>;
      for (const k of BUCKETS) b[k] = [];
      idx[lang][v] = b;
    }
  }
  for (const h of HOSTS) {
    const b = bucketOf(h);
    if (!b) continue;
    for (const v of h.verticals) idx[h.lang][v][b].push(h);
  }
  return idx;
})();

const GROUPS_BY_VERTICAL: Map<Vertical, HostInfo[][]> = (() => {
  const m = new Map<Vertical, HostInfo[][]>();
  for (const v of VERTICALS) {
    const list: HostInfo[][] = [];
    for (const members of MEDIA_GROUPS.values()) {
      const covering = members.filter((h) => h.verticals.includes(v));
      if (covering.length >= 2) list.push(covering);
    }
    m.set(v, list);
  }
  return m;
})();

const STORY_VERTICALS: Vertical[] = ['news', 'finance', 'health', 'science', 'sports', 'law'];
const STORY_CUM = cumulative([50, 14, 10, 10, 10, 6]);
const VERTICAL_CUM = cumulative(VERTICALS.map((v) => (v === 'news' ? 2 : 1)));
const PARA_COUNTS = [1, 2, 3, 4, 5, 6, 7];
const PARA_CUM = cumulative([8, 18, 24, 22, 14, 9, 5]);

const QUOTE_TPLS = QUOTE_TEMPLATES.map(compile);
const UPDATE_TPL = compile('Update: this page was revised to reflect new information about the {S}.');

function slugify(s: string): string {
  let out = s.toLowerCase();
  if (/[^\x00-\x7f]/.test(out)) out = out.replace(/ß/g, 'ss').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  out = out.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (out.length > 60) {
    out = out.slice(0, 60);
    const cut = out.lastIndexOf('-');
    if (cut > 30) out = out.slice(0, cut);
  }
  return out || 'page';
}

function authorityOf(h: HostInfo): Authority {
  switch (h.kind) {
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
      return h.rank >= 0.78 ? 'high' : 'medium';
    case 'magazine':
    case 'releasewire':
      return 'medium';
    default:
      return 'low';
  }
}

/** A page that has been emitted, kept (boundedly) for mirrors, republishes and re-crawls. */
interface Emitted {
  rec: DemoPageRecord;
  host: HostInfo;
  path: string;
  paras: Para[];
  voc: Voc;
  subject: Subject;
  style: Style;
  contentType: ContentType;
}

interface PageSpec {
  host: HostInfo;
  voc: Voc;
  subject: Subject;
  contentType: ContentType;
  fetched: number;
  published: number | undefined;
  paras: Para[];
  title: string;
  path?: string;
  explicit?: boolean;
  id?: string;
}

export class DemoCorpusGenerator {
  readonly stats: DemoCorpusStats = { pages: 0, passageRecords: 0, removals: 0, passages: 0 };
  private readonly rng: Rng;
  private readonly text: TextGen;
  private readonly now: number;
  private remaining: number;
  private seq = 0;
  private removalCount = 0;
  private readonly removedUrls = new Set<string>();
  private readonly mirrorUrls = new Set<string>();
  private readonly hubUrls = new Map<Vertical, { urls: string[]; weights: number[]; cum: number[] }>();
  private readonly allHubs: { urls: string[]; weights: number[]; cum: number[] } = { urls: [], weights: [], cum: [] };
  private readonly recentByVertical = new Map<Vertical, string[]>();
  private readonly recentPages: Emitted[] = [];
  private readonly recentNews: Emitted[] = [];
  private readonly recrawlPool: Emitted[] = [];
  private readonly removalPool: Array<{ url: string; fetched: number; lowTrust: boolean }> = [];

  constructor(opts: DemoCorpusOptions) {
    if (!Number.isInteger(opts.passages) || opts.passages < 0) throw new Error('passages must be a non-negative integer');
    if (!Number.isInteger(opts.now) || opts.now < 10 * YEAR) throw new Error('now must be unix seconds');
    const seed = opts.seed ?? 1;
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error('seed must be a non-negative integer');
    this.rng = new Rng(seed);
    this.text = new TextGen(this.rng);
    this.now = opts.now;
    this.remaining = opts.passages;
  }

  *records(): Generator<DemoRecord> {
    for (const r of this.hubPages()) yield r;
    for (const unit of this.showcase()) {
      if (this.remaining <= 0) break;
      for (const r of unit()) yield r;
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
    const cum = cumulative([80, 2.2, 1.1, 3, 1.3, 1.2, 0.8, 2.2, 1.6]);
    while (this.remaining > 0) {
      const unit = this.rng.pickCum(units, cum);
      for (const r of unit()) yield r;
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
    for (const v of VERTICALS) list.push(() => this.plainUnit({ vertical: v, lang: 'en' }));
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
    for (const reason of REMOVAL_REASONS) list.push(() => this.removalUnit(reason));
    return list;
  }

  // ---------------------------------------------------------------- time

  private fetchTime(source: Source, recent = false): number {
    const r = this.rng;
    if (source === 'delta') {
      if (recent || r.chance(0.3)) return this.now - r.range(300, DAY);
      return this.now - r.range(DAY, 30 * DAY);
    }
    return this.now - r.range(35 * DAY, 730 * DAY);
  }

  private publishedBefore(fetched: number, style: Style): number {
    const r = this.rng;
    let lag: number;
    switch (style) {
      case 'news':
        lag = Math.min(5 * DAY, Math.floor(r.exp(8 * HOUR)));
        break;
      case 'docs':
      case 'reference':
      case 'academic':
      case 'document':
      case 'code':
        lag = r.chance(0.35) ? r.range(180 * DAY, 6 * YEAR) : r.range(HOUR, 180 * DAY);
        break;
      case 'ugc':
        lag = Math.floor(r.exp(60 * DAY));
        break;
      default:
        lag = Math.floor(r.exp(15 * DAY));
    }
    return fetched - lag;
  }

  /** Publication instant of a story's first member. */
  private storyTime(source: Source): number {
    const r = this.rng;
    if (source === 'delta') return r.chance(0.3) ? this.now - r.range(7 * HOUR, 30 * HOUR) : this.now - r.range(30 * HOUR, 29 * DAY);
    return this.now - r.range(40 * DAY, 725 * DAY);
  }

  /** Crawl instant after a publication, consistent with the source. */
  private fetchAfter(published: number, source: Source): number {
    const r = this.rng;
    if (source === 'delta') return Math.max(published, Math.min(this.now - 1, published + r.range(60, 36 * HOUR)));
    return Math.max(published, Math.min(this.now - 31 * DAY, published + r.range(HOUR, 60 * DAY)));
  }

  private sourceOf(fetched: number): Source {
    return fetched >= this.now - 30 * DAY ? 'delta' : 'cc';
  }

  private capPublished(t: number): number {
    return Math.min(t, this.now - 60);
  }

  // ---------------------------------------------------------------- hosts and text

  private pickHost(vertical: Vertical, lang: Lang, bucket?: Bucket): HostInfo {
    const r = this.rng;
    const idx = HOST_INDEX[lang][vertical];
    if (lang !== 'en') {
      const all = BUCKETS.flatMap((b) => idx[b]);
      return r.pick(all);
    }
    let b = bucket ?? r.pickCum(BUCKETS, BUCKET_CUMS[vertical]);
    if (idx[b].length === 0) b = 'secondary';
    return r.skewPick(idx[b], 1.5);
  }

  private ctx(voc: Voc, subject: Subject, host: HostInfo, style: Style, t: number): Ctx {
    return { voc, subject: subject.phrase, plural: subject.plural, host: host.host, year: new Date(t * 1000).getUTCFullYear(), style };
  }

  private paragraphs(c: Ctx, k: number, firstPrefix = ''): Para[] {
    const out: Para[] = [];
    for (let i = 0; i < k; i++) out.push(this.text.paragraph(c, i === 0 ? firstPrefix : ''));
    return out;
  }

  /** Append a sentence to a paragraph when it stays within the word limit. */
  private appendTo(p: Para, sentence: string, atStart = false): Para | null {
    const w = countWords(sentence);
    if (p.words + w > MAX_WORDS) return null;
    return { text: atStart ? `${sentence} ${p.text}` : `${p.text} ${sentence}`, words: p.words + w };
  }

  /** Put a sentence into the shortest paragraph (copy-on-write). */
  private insertSentence(paras: Para[], sentence: string, atStart = false): boolean {
    let best = 0;
    for (let i = 1; i < paras.length; i++) if (paras[i].words < paras[best].words) best = i;
    const next = this.appendTo(paras[best], sentence, atStart && this.rng.chance(0.5));
    if (!next) return false;
    paras[best] = next;
    return true;
  }

  private zeroWidth(s: string): string {
    // Zero-width characters inside the first words: invisible to a reader, still in the text.
    const words = s.split(' ');
    for (let i = 0; i < Math.min(3, words.length); i++) words[i] = words[i].split('').join('\u200b');
    return `\u2060${words.join(' ')}\u200c`;
  }

  private riskSentence(kind: 'instruction' | 'hidden' | 'role', c: Ctx): string {
    const r = this.rng;
    if (kind === 'instruction') return this.text.fill(compile(r.pick(INSTRUCTION_SENTENCES)), c);
    if (kind === 'role') return this.text.fill(compile(r.pick(ROLE_MARKER_SENTENCES)), c);
    if (r.chance(0.5)) return this.zeroWidth(this.text.fill(compile(r.pick(INSTRUCTION_SENTENCES)), c));
    return this.text.fill(compile(r.pick(HIDDEN_MARKUP_SENTENCES)), c);
  }

  private pickParaCount(): number {
    return this.rng.pickCum(PARA_COUNTS, PARA_CUM);
  }

  // ---------------------------------------------------------------- URLs and links

  private uid(): string {
    return (++this.seq).toString(36);
  }

  private pathFor(host: HostInfo, title: string, ct: ContentType, vertical: Vertical, t: number, subject: Subject): string {
    const slug = slugify(title);
    const d = new Date(t * 1000);
    const yyyy = d.getUTCFullYear();
    const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
    const dd = String(d.getUTCDate()).padStart(2, '0');
    const id = this.uid();
    switch (host.kind) {
      case 'news':
      case 'wire':
      case 'aggregator':
        return `/${vertical}/${yyyy}/${mm}/${dd}/${slug}-${id}`;
      case 'releasewire':
        return `/news-releases/${slug}-${id}.html`;
      case 'newsroom':
        return `/press/${yyyy}/${slug}-${id}`;
      case 'docs':
        return `/docs/${slugify(subject.phrase)}/${slug}-${id}.html`;
      case 'academic':
        return `/abs/${String(yyyy).slice(2)}${mm}.${id}`;
      case 'code': {
        const org = slugify(this.rng.pick(LAST_NAMES));
        return ct === 'code' ? `/${org}/${slugify(subject.phrase)}-${id}` : `/${org}/${slugify(subject.phrase)}-${id}/wiki/${slug}`;
      }
      case 'qa':
        return `/questions/${this.seq}/${slug}`;
      case 'forum':
      case 'adult':
        return `/t/${slug}/${this.seq}`;
      case 'social':
        return `/@${this.rng.pick(FIRST_NAMES).toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '')}${this.rng.int(1000)}/post/${id}`;
      case 'video':
        return `/watch/${id}-${slug}`;
      case 'reference':
        return `/wiki/${slug}-${id}`;
      case 'gov':
      case 'edu':
      case 'court':
      case 'regulator': {
        const section = ct === 'news' ? 'news' : ct === 'how-to' ? 'guidance' : ct === 'academic' ? 'research' : 'publications';
        return `/${section}/${slug}-${id}`;
      }
      case 'magazine':
        return ct === 'how-to' && vertical === 'cooking' ? `/recipes/${slug}-${id}/` : `/${yyyy}/${mm}/${slug}-${id}/`;
      default:
        return `/${slug}-${id}.html`;
    }
  }

  private registerHub(vertical: Vertical, url: string, weight: number): void {
    let h = this.hubUrls.get(vertical);
    if (!h) {
      h = { urls: [], weights: [], cum: [] };
      this.hubUrls.set(vertical, h);
    }
    h.urls.push(url);
    h.weights.push(weight);
    h.cum = cumulative(h.weights);
    this.allHubs.urls.push(url);
    this.allHubs.weights.push(weight);
    this.allHubs.cum = cumulative(this.allHubs.weights);
  }

  private linksFor(vertical: Vertical, self: string): string[] | undefined {
    const r = this.rng;
    if (!r.chance(0.7)) return undefined;
    const n = 1 + r.int(5);
    const hubs = this.hubUrls.get(vertical);
    const recent = this.recentByVertical.get(vertical);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = r.next();
      let url: string | undefined;
      if (x < 0.6 && hubs && hubs.urls.length) url = r.pickCum(hubs.urls, hubs.cum);
      else if (x < 0.75 && this.allHubs.urls.length) url = r.pickCum(this.allHubs.urls, this.allHubs.cum);
      else if (recent && recent.length) url = r.pick(recent);
      if (url && url !== self && !out.includes(url)) out.push(url);
    }
    return out.length ? out : undefined;
  }

  // ---------------------------------------------------------------- records

  private buildRecord(s: PageSpec, url: string): DemoPageRecord {
    const r = this.rng;
    const h = s.host;
    const rec: DemoPageRecord = {} as DemoPageRecord;
    if (s.id) rec.id = s.id;
    rec.url = url;
    rec.title = s.title;
    rec.text = s.paras.map((p) => p.text).join('\n\n');
    rec.fetched_at = s.fetched;
    if (s.published !== undefined) rec.published_at = s.published;
    const source = this.sourceOf(s.fetched);
    if (source === 'delta' || r.chance(0.92)) rec.source = source;
    if (r.chance(s.voc.lang === 'en' ? 0.45 : 0.7)) rec.lang = s.voc.lang;
    if (r.chance(0.92)) rec.vertical = s.voc.vertical;
    if (r.chance(0.88)) rec.content_type = s.contentType;
    if (r.chance(0.7)) rec.authority = authorityOf(h);
    if (s.explicit) rec.safety = 'explicit';
    else if (r.chance(0.8)) rec.safety = 'safe';
    if (r.chance(0.9)) rec.host_rank = h.rank;
    if (r.chance(0.85)) {
      const q = h.kind === 'spam' ? r.range(5, 30) : Math.round(h.rank * 70 + r.next() * 30 - 5);
      rec.quality = Math.max(0, Math.min(100, q));
    }
    if (r.chance(0.75) && s.subject.topics.length) rec.topics = s.subject.topics.slice();
    const links = this.linksFor(s.voc.vertical, url);
    if (links) rec.links = links;
    if (h.owner && r.chance(0.5)) rec.owner = h.owner;
    return rec;
  }

  /** Account for an emitted page record and remember it for later units. */
  private emit(s: PageSpec, opts: { pool?: boolean; hub?: number; url?: string } = {}): DemoPageRecord {
    const path = opts.url ? '' : s.path ?? this.pathFor(s.host, s.title, s.contentType, s.voc.vertical, s.published ?? s.fetched, s.subject);
    const url = opts.url ?? `https://${s.host.host}${path}`;
    const rec = this.buildRecord(s, url);
    this.remaining -= s.paras.length;
    this.stats.passages += s.paras.length;
    if (s.id) this.stats.passageRecords++;
    else this.stats.pages++;
    const v = s.voc.vertical;
    let ring = this.recentByVertical.get(v);
    if (!ring) {
      ring = [];
      this.recentByVertical.set(v, ring);
    }
    if (ring.length < 64) ring.push(url);
    else ring[this.rng.int(64)] = url;
    if (opts.hub !== undefined) this.registerHub(v, url, opts.hub);
    if (!s.id && !opts.url) {
      const e: Emitted = { rec, host: s.host, path, paras: s.paras, voc: s.voc, subject: s.subject, style: styleOf(s.contentType), contentType: s.contentType };
      this.remember(this.recentPages, e, 64);
      if (s.host.kind === 'news' || s.host.kind === 'magazine') this.remember(this.recentNews, e, 64);
      if (opts.pool !== false) {
        const x = this.rng.next();
        if (x < 0.05 && rec.fetched_at < this.now - 3600) this.remember(this.recrawlPool, e, 400);
        else if (x < 0.09) {
          const item = { url, fetched: rec.fetched_at, lowTrust: s.host.lowTrust };
          if (this.removalPool.length < 2000) this.removalPool.push(item);
          else this.removalPool[this.rng.int(2000)] = item;
        }
      }
    }
    return rec;
  }

  private remember(list: Emitted[], e: Emitted, cap: number): void {
    if (list.length < cap) list.push(e);
    else list[this.rng.int(cap)] = e;
  }

  // ---------------------------------------------------------------- units

  private hubPages(): DemoRecord[] {
    const out: DemoRecord[] = [];
    for (const [name, weight] of HUB_WEIGHTS) {
      const host = hostNamed(name);
      for (let i = 0; i < 2 && this.remaining > 0; i++) {
        const vertical = host.verticals[i % host.verticals.length];
        out.push(
          ...this.plainUnit({ host, vertical, lang: 'en', source: 'cc', hub: weight, paras: 2 + this.rng.int(3), risk: 'none' }),
        );
      }
    }
    return out;
  }

  private plainUnit(
    o: {
      vertical?: Vertical;
      lang?: Lang;
      setLang?: boolean;
      host?: HostInfo;
      bucket?: Bucket;
      explicit?: boolean;
      risk?: 'instruction' | 'hidden' | 'role' | 'none';
      source?: Source;
      recent?: boolean;
      undated?: boolean;
      hub?: number;
      paras?: number;
      contentType?: ContentType;
    } = {},
  ): DemoRecord[] {
    const r = this.rng;
    const lang: Lang = o.lang ?? (o.host ? o.host.lang : r.chance(0.07) ? r.pick(['de', 'fr', 'es'] as const) : 'en');
    const explicit = o.explicit ?? (lang === 'en' && !o.host && r.chance(0.025));
    let vertical: Vertical;
    if (o.vertical) vertical = o.vertical;
    else if (lang === 'en') vertical = r.pickCum(VERTICALS, VERTICAL_CUM);
    else vertical = r.pick(verticalsOf(lang));
    let host: HostInfo;
    if (o.host) host = o.host;
    else if (explicit) host = r.chance(0.7) ? r.pick(ADULT_HOSTS) : this.pickHost(vertical, 'en', 'ugc');
    else host = this.pickHost(vertical, lang, o.bucket);
    const voc = vocFor(lang, vertical);
    const subject = r.pick(voc.subjects);
    const contentType = o.contentType ?? r.pick(host.types);
    const style = styleOf(contentType);
    const source: Source = o.source ?? (r.chance(0.2) ? 'delta' : 'cc');
    const fetched = this.fetchTime(source, o.recent);
    const undated = o.undated ?? (o.recent ? false : r.chance(0.15));
    const published = undated ? undefined : o.recent ? fetched - r.range(60, 12 * HOUR) : this.publishedBefore(fetched, style);
    const k = Math.max(1, Math.min(o.paras ?? this.pickParaCount(), this.remaining));
    const c = this.ctx(voc, subject, host, style, published ?? fetched);
    const paras = this.paragraphs(c, k);
    if (explicit) this.insertSentence(paras, r.pick(EXPLICIT_SENTENCES), true);
    let risk = o.risk;
    if (risk === undefined && lang === 'en') {
      const p = host.kind === 'spam' ? 0.35 : host.role === 'ugc' ? 0.05 : 0.004;
      if (r.chance(p)) risk = r.pickCum(['instruction', 'hidden', 'role'] as const, [45, 75, 100]);
    }
    if (risk && risk !== 'none') this.insertSentence(paras, this.riskSentence(risk, c), true);
    const title = this.text.title(c);
    const spec: PageSpec = { host, voc, subject, contentType, fetched, published, paras, title, explicit };
    const rec = this.emit(spec, { hub: o.hub, pool: o.hub === undefined });
    if (o.setLang) rec.lang = lang;
    return [rec];
  }

  private pickOutlets(n: number, vertical: Vertical, exclude: HostInfo[] = []): HostInfo[] {
    const r = this.rng;
    const chosen: HostInfo[] = [];
    if (n >= 2 && r.chance(0.6)) {
      // Two outlets of one media group (shared owner), when a group covers the vertical.
      const groups = GROUPS_BY_VERTICAL.get(vertical) ?? [];
      if (groups.length) chosen.push(...r.sample(r.pick(groups), 2).filter((h) => !exclude.includes(h)));
    }
    const fitting = NEWS_OUTLETS.filter((h) => h.verticals.includes(vertical) && !chosen.includes(h) && !exclude.includes(h));
    const rest = NEWS_OUTLETS.filter((h) => !fitting.includes(h) && !chosen.includes(h) && !exclude.includes(h));
    for (const h of r.sample(fitting, n - chosen.length)) chosen.push(h);
    if (chosen.length < n) chosen.push(...r.sample(rest, n - chosen.length));
    return chosen.slice(0, n);
  }

  private dateParts(t: number): { month: string; day: number; year: number } {
    const d = new Date(t * 1000);
    return { month: MONTHS[d.getUTCMonth()], day: d.getUTCDate(), year: d.getUTCFullYear() };
  }

  private person(): string {
    return `${this.rng.pick(FIRST_NAMES)} ${this.rng.pick(LAST_NAMES)}`;
  }

  /** A wire story and the outlets (3-6) that carry it with small edits, minutes to hours later. */
  private wireUnit(o: { vertical?: Vertical; source?: Source; outlets?: number; aggregator?: boolean } = {}): DemoRecord[] {
    const r = this.rng;
    const wire: WireService = r.pick(WIRES);
    const vertical = o.vertical ?? r.pickCum(STORY_VERTICALS, STORY_CUM);
    const nOut = o.outlets ?? r.range(3, 6);
    const withAgg = o.aggregator ?? r.chance(0.35);
    const members = 1 + nOut + (withAgg ? 1 : 0);
    let k = r.range(2, 5);
    if (members * k > this.remaining) k = Math.floor(this.remaining / members);
    if (k < 1) return this.plainUnit();
    const voc = VOC_EN[vertical];
    const subject = r.pick(voc.subjects);
    const source: Source = o.source ?? (r.chance(0.22) ? 'delta' : 'cc');
    const t0 = this.storyTime(source);
    const c = this.ctx(voc, subject, wire.host, 'news', t0);
    const city = r.pick(CITIES);
    const dp = this.dateParts(t0);
    const dateline =
      wire.style === 'short' ? `${city.toUpperCase()} (${wire.abbr}) — ` : `${city.toUpperCase()}, ${dp.month} ${dp.day} (${wire.name}) - `;
    const paras = this.paragraphs(c, k, dateline);
    if (r.chance(0.5)) {
      const p = this.appendTo(paras[k - 1], `${wire.name} writer ${this.person()} in ${r.pick(CITIES)} contributed to this report.`);
      if (p) paras[k - 1] = p;
    }
    const title = this.text.title(c);
    const out: DemoRecord[] = [];
    const base = { voc, subject, contentType: 'news' as ContentType };
    out.push(this.emit({ ...base, host: wire.host, fetched: this.fetchAfter(t0, source), published: t0, paras, title }));
    const outlets = this.pickOutlets(nOut, vertical);
    const offsets = outlets.map(() => r.range(120, 6 * HOUR)).sort((a, b) => a - b);
    outlets.forEach((outlet, i) => {
      const copy = paras.slice();
      const x = r.next();
      const t = x < 0.4 ? title : x < 0.7 ? this.text.title(c) : `${title} | ${outlet.name}`;
      if (r.chance(0.6)) {
        const add = r.pick([`This story has been updated with additional details.`, `${outlet.name} staff contributed to this report.`, this.text.bodySentence(c)]);
        const p = this.appendTo(copy[k - 1], add);
        if (p) copy[k - 1] = p;
      }
      if (k > 2 && r.chance(0.25)) {
        const j = 1 + r.int(k - 2);
        const p = this.appendTo(copy[j], this.text.bodySentence(c));
        if (p) copy[j] = p;
      }
      const published = this.capPublished(t0 + offsets[i]);
      const undated = r.chance(0.03);
      out.push(
        this.emit({ ...base, host: outlet, fetched: this.fetchAfter(published, source), published: undated ? undefined : published, paras: copy, title: t }),
      );
    });
    if (withAgg) {
      const agg = r.pick(AGGREGATORS);
      const copy = paras.slice();
      const p = this.appendTo(copy[k - 1], `Source: ${wire.name}.`);
      if (p) copy[k - 1] = p;
      const published = this.capPublished(t0 + r.range(10 * 60, 8 * HOUR));
      out.push(this.emit({ ...base, host: agg, fetched: this.fetchAfter(published, source), published: r.chance(0.4) ? undefined : published, paras: copy, title }));
    }
    return out;
  }

  /** A press release on a release wire, its copy in the company newsroom, and news reports about it. */
  private pressUnit(o: { company?: number; release?: number; reports?: number; newsroom?: boolean; source?: Source } = {}): DemoRecord[] {
    const r = this.rng;
    const co = o.company !== undefined ? COMPANIES[o.company] : r.pick(COMPANIES);
    const rel = o.release !== undefined ? co.releases[o.release] : r.pick(co.releases);
    const subject = parseSubject(rel.subject);
    const voc = VOC_EN[co.vertical];
    const rw = r.pick(RELEASE_WIRES);
    const newsroom = hostNamed(co.newsroom);
    let withNewsroom = o.newsroom ?? r.chance(0.6);
    let kRel = r.range(3, 5);
    const reportKs: number[] = [];
    for (let i = 0, n = o.reports ?? r.range(1, 3); i < n; i++) reportKs.push(r.range(2, 4));
    const total = () => kRel * (withNewsroom ? 2 : 1) + reportKs.reduce((a, b) => a + b, 0);
    while (total() > this.remaining && reportKs.length) reportKs.pop();
    if (total() > this.remaining) withNewsroom = false;
    if (total() > this.remaining) kRel = this.remaining;
    if (kRel < 3) return this.plainUnit();
    const source: Source = o.source ?? (r.chance(0.22) ? 'delta' : 'cc');
    const t0 = this.storyTime(source);
    const dp = this.dateParts(t0);
    const c = this.ctx(voc, subject, rw, 'news', t0);
    const city = co.city.split(',')[0].toUpperCase();
    const lead = `FOR IMMEDIATE RELEASE. ${city}, ${dp.month} ${dp.day}, ${dp.year} /${rw.name}/ -- ${co.name} (${co.exchange}: ${co.ticker}), ${co.industry}, today announced that it has ${rel.action}.`;
    const paras: Para[] = [this.text.paragraph(c, lead + ' ')];
    for (let i = 1; i < kRel - 1; i++) {
      const q = this.text.sentence(r.pick(QUOTE_TPLS), c);
      paras.push(this.text.paragraph(c, `“${q},” said ${this.person()}, ${r.pick(['chief executive officer', 'chief scientific officer', 'president', 'head of product'])} of ${co.name}. `));
    }
    const about = `About ${co.name}: ${co.name} is ${co.industry} headquartered in ${co.city}. The company works with ${r.pick(voc.actors)} and partners in more than ${r.range(5, 60)} countries. For more information, visit https://${co.newsroom}. Media contact: ${this.person()}, Director of Communications, ${co.name}, press@${co.domain}, +1 555 01${String(r.range(10, 99))}. Forward-looking statements in this release involve risks and uncertainties.`;
    paras.push({ text: about, words: countWords(about) });
    const out: DemoRecord[] = [];
    const base = { voc, subject };
    out.push(this.emit({ ...base, host: rw, contentType: 'news', fetched: this.fetchAfter(t0, source), published: t0, paras, title: rel.headline }));
    if (withNewsroom) {
      const published = this.capPublished(t0 + r.range(0, 2 * HOUR));
      out.push(
        this.emit({ ...base, host: newsroom, contentType: r.pick(['news', 'document'] as const), fetched: this.fetchAfter(published, source), published, paras: paras.slice(), title: rel.headline }),
      );
    }
    const outlets = this.pickOutlets(reportKs.length, co.vertical);
    outlets.forEach((outlet, i) => {
      const rc = this.ctx(voc, subject, outlet, 'news', t0);
      const leadR = `${co.name} said on ${r.pick(WEEKDAYS)} that it had ${rel.action}, according to a press release distributed by ${rw.name}.`;
      const rp = this.paragraphs(rc, reportKs[i], leadR + ' ');
      const move = `Shares of ${co.name} ${r.chance(0.6) ? 'rose' : 'fell'} ${r.range(1, 12)} percent in early trading after the announcement.`;
      this.insertSentence(rp, move);
      const published = this.capPublished(t0 + r.range(30 * 60, 10 * HOUR));
      const title = r.chance(0.5) ? capitalize(`${co.name} ${rel.action}`) : this.text.title(rc);
      out.push(this.emit({ ...base, host: outlet, contentType: 'news', fetched: this.fetchAfter(published, source), published, paras: rp, title }));
    });
    return out;
  }

  /** Original reporting by one outlet, optionally republished verbatim elsewhere and picked up by an aggregator. */
  private reportUnit(o: { republish?: boolean; aggregator?: boolean } = {}): DemoRecord[] {
    const r = this.rng;
    const vertical = r.pickCum(STORY_VERTICALS, STORY_CUM);
    const [outlet] = this.pickOutlets(1, vertical);
    const republish = o.republish ?? r.chance(0.5);
    const withAgg = o.aggregator ?? r.chance(0.5);
    const members = 1 + (republish ? 1 : 0) + (withAgg ? 1 : 0);
    let k = r.range(2, 5);
    if (members * k > this.remaining) k = Math.floor(this.remaining / members);
    if (k < 1) return this.plainUnit();
    const voc = VOC_EN[vertical];
    const subject = r.pick(voc.subjects);
    const source: Source = r.chance(0.22) ? 'delta' : 'cc';
    const t0 = this.storyTime(source);
    const c = this.ctx(voc, subject, outlet, 'news', t0);
    const paras = this.paragraphs(c, k, r.chance(0.5) ? `By ${this.person()}. ` : '');
    const title = this.text.title(c);
    const base = { voc, subject, contentType: 'news' as ContentType };
    const out: DemoRecord[] = [this.emit({ ...base, host: outlet, fetched: this.fetchAfter(t0, source), published: t0, paras, title })];
    if (republish) {
      const [other] = this.pickOutlets(1, vertical, [outlet]);
      const published = this.capPublished(t0 + r.range(3 * HOUR, 5 * DAY));
      out.push(this.emit({ ...base, host: other, fetched: this.fetchAfter(published, source), published, paras: paras.slice(), title }));
    }
    if (withAgg) {
      const agg = r.pick(AGGREGATORS);
      const copy = paras.slice();
      const p = this.appendTo(copy[k - 1], `Source: ${outlet.name}.`);
      if (p) copy[k - 1] = p;
      const published = this.capPublished(t0 + r.range(15 * 60, 12 * HOUR));
      out.push(this.emit({ ...base, host: agg, fetched: this.fetchAfter(published, source), published: r.chance(0.4) ? undefined : published, paras: copy, title }));
    }
    return out;
  }

  /** A page delivered as 1-3 passage records (`id` = page:no) instead of a page to split. */
  private passageGroupUnit(): DemoRecord[] {
    const r = this.rng;
    const m = Math.min(r.range(1, 3), this.remaining);
    const vertical = r.pickCum(VERTICALS, VERTICAL_CUM);
    const host = this.pickHost(vertical, 'en');
    const voc = VOC_EN[vertical];
    const subject = r.pick(voc.subjects);
    const contentType = r.pick(host.types);
    const style = styleOf(contentType);
    const source: Source = r.chance(0.2) ? 'delta' : 'cc';
    const fetched = this.fetchTime(source);
    const published = r.chance(0.15) ? undefined : this.publishedBefore(fetched, style);
    const c = this.ctx(voc, subject, host, style, published ?? fetched);
    const title = this.text.title(c);
    const page = `p${r.u32().toString(16).padStart(8, '0')}${(this.seq & 0xffff).toString(16).padStart(4, '0')}`;
    const path = this.pathFor(host, title, contentType, vertical, published ?? fetched, subject);
    const out: DemoRecord[] = [];
    for (let i = 0; i < m; i++) {
      const paras = [this.text.paragraph(c)];
      out.push(this.emit({ host, voc, subject, contentType, fetched, published, paras, title, path, id: `${page}:${i}` }));
    }
    return out;
  }

  /** An exact redundant copy of a recent page at a second URL on a mirror host. */
  private mirrorUnit(): DemoRecord[] {
    const r = this.rng;
    if (!this.recentPages.length) return this.plainUnit();
    const src = r.pick(this.recentPages);
    if (src.paras.length > this.remaining) return this.plainUnit();
    const start = r.int(MIRROR_HOSTS.length);
    let mirror: HostInfo | undefined;
    let url = '';
    for (let i = 0; i < MIRROR_HOSTS.length && !mirror; i++) {
      const m = MIRROR_HOSTS[(start + i) % MIRROR_HOSTS.length];
      url = `https://${m.host}/${src.host.host}${src.path}`;
      if (!this.mirrorUrls.has(url)) mirror = m;
    }
    if (!mirror) return this.plainUnit();
    this.mirrorUrls.add(url);
    const fetched = Math.min(this.now - 60, src.rec.fetched_at + r.range(HOUR, 120 * DAY));
    if (fetched <= src.rec.fetched_at) return this.plainUnit();
    const spec: PageSpec = {
      host: mirror,
      voc: src.voc,
      subject: src.subject,
      contentType: src.contentType,
      fetched,
      published: src.rec.published_at,
      paras: src.paras,
      title: src.rec.title,
      explicit: src.rec.safety === 'explicit',
    };
    return [this.emit(spec, { url, pool: false })];
  }

  /** A later identical copy of a recent article at another outlet. */
  private republishUnit(): DemoRecord[] {
    const r = this.rng;
    if (!this.recentNews.length) return this.plainUnit();
    const src = r.pick(this.recentNews);
    if (src.paras.length > this.remaining || src.voc.lang !== 'en') return this.plainUnit();
    const [other] = this.pickOutlets(1, src.voc.vertical, [src.host]);
    const basis = src.rec.published_at ?? src.rec.fetched_at;
    const published = this.capPublished(basis + r.range(2 * HOUR, 20 * DAY));
    const fetched = Math.min(this.now - 1, Math.max(published, src.rec.fetched_at) + r.range(60, 10 * DAY));
    const spec: PageSpec = {
      host: other,
      voc: src.voc,
      subject: src.subject,
      contentType: src.contentType,
      fetched,
      published: src.rec.published_at === undefined ? undefined : published,
      paras: src.paras,
      title: src.rec.title,
    };
    return [this.emit(spec, { pool: false })];
  }

  /** The same URL crawled again later, with changed text. */
  private recrawlUnit(force = false): DemoRecord[] {
    const r = this.rng;
    if (!this.recrawlPool.length && force && this.recentPages.length) this.recrawlPool.push(this.recentPages[this.recentPages.length - 1]);
    if (!this.recrawlPool.length) return this.plainUnit();
    const i = r.int(this.recrawlPool.length);
    const e = this.recrawlPool[i];
    this.recrawlPool[i] = this.recrawlPool[this.recrawlPool.length - 1];
    this.recrawlPool.pop();
    const old = e.rec.fetched_at;
    if (old >= this.now - 120) return this.plainUnit();
    const span = this.now - 60 - old;
    const fetched = old + Math.max(1, Math.floor(span * Math.pow(r.next(), 0.7)));
    const c = this.ctx(e.voc, e.subject, e.host, e.style, e.rec.published_at ?? old);
    const paras = e.paras.slice();
    const j = r.int(paras.length);
    paras[j] = this.text.paragraph(c);
    if (r.chance(0.3) && paras.length < this.remaining) paras.push(this.text.paragraph(c));
    if (paras.length > this.remaining) return this.plainUnit();
    if (e.voc.lang === 'en' && r.chance(0.5)) this.insertSentence(paras, this.text.fill(UPDATE_TPL, c), true);
    const title = r.chance(0.3) && e.voc.lang === 'en' ? `Updated: ${e.rec.title}` : e.rec.title;
    const spec: PageSpec = {
      host: e.host,
      voc: e.voc,
      subject: e.subject,
      contentType: e.contentType,
      fetched,
      published: e.rec.published_at,
      paras,
      title,
      explicit: e.rec.safety === 'explicit',
    };
    return [this.emit(spec, { url: e.rec.url, pool: false })];
  }

  /** A removal event for a page emitted earlier. */
  private removalUnit(reason?: RemovalReason): DemoRecord[] {
    const r = this.rng;
    const pool = this.removalPool;
    if (!pool.length && reason) {
      // Scripted removals: fall back to a recent page that is not waiting for a re-crawl.
      const cands = this.recentPages.filter((e) => !this.recrawlPool.includes(e) && !this.removedUrls.has(e.rec.url));
      if (cands.length) {
        const e = r.pick(cands);
        pool.push({ url: e.rec.url, fetched: e.rec.fetched_at, lowTrust: e.host.lowTrust });
      }
    }
    if (!pool.length) return [];
    const why: RemovalReason =
      reason ?? (this.removalCount < REMOVAL_REASONS.length ? REMOVAL_REASONS[this.removalCount] : r.pickCum(REMOVAL_REASONS, [30, 50, 65, 100]));
    let idx = r.int(pool.length);
    for (let tries = 0; tries < 8; tries++) {
      const cand = pool[idx];
      if (why === 'stale' && cand.fetched < this.now - 300 * DAY) break;
      if (why === 'tombstoned-source' && cand.lowTrust) break;
      if (why !== 'stale' && why !== 'tombstoned-source') break;
      idx = r.int(pool.length);
    }
    const item = pool[idx];
    pool[idx] = pool[pool.length - 1];
    pool.pop();
    this.removalCount++;
    this.stats.removals++;
    this.removedUrls.add(item.url);
    const removedAt = Math.min(this.now, item.fetched + r.range(HOUR, 200 * DAY));
    return [{ url: item.url, removed: why, removed_at: Math.max(item.fetched + 1, removedAt) }];
  }
}

/** Generate the demo corpus as a stream of JSON-serialisable records. */
export function* generateDemoCorpus(options: DemoCorpusOptions): Generator<DemoRecord> {
  yield* new DemoCorpusGenerator(options).records();
}
