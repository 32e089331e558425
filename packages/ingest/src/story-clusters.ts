/**
 * Near-duplicate clustering across every shard: the ingest process sees every record, so the
 * clustering state lives here, not in the shards.
 *
 * Method: MinHash with locality-sensitive hashing. A passage's fingerprint (fingerprint.ts) is a
 * 32-bin one-permutation MinHash over the word 3-shingles of its normalised text. Each story is
 * indexed by the signature of the passage that founded it, cut into 8 bands of 4 bins; a new
 * passage looks up the stories sharing at least one band (P = 1 - (1 - J^4)^8: 0.99 at J = 0.84,
 * 0.89 at J = 0.7, 0.40 at J = 0.5) and joins the most similar founder whose estimated Jaccard
 * similarity is at least 0.6 (ties: the older story), else founds a story of its own. Matching
 * founders only, not every member, keeps clusters from drifting by chains of small edits. A
 * passage of fewer than `MIN_STORY_WORDS` words joins only a story founded by the same text: a
 * few shingles make the estimate a coin toss ("Home page of a.example." and "Home page of
 * b.example." share one of their two shingles, and 1 pair in 100 was estimated at 0.6 or more).
 *
 * Independent sources: a story counts the distinct hosts of its *corroborating* members. The
 * founder corroborates; a later member from another host corroborates only when its page carries
 * the founding page's text as content, not as page furniture many hosts share (a Q&A network's
 * "Not the answer you're looking for?", a wiki farm's footer, a newsletter box): counted over
 * the passages of at least `MIN_STORY_WORDS` words, the passages of this page in stories the
 * founder's host carries too make up at least `SHARED_CONTENT_SHARE` of this page's words, or
 * the passages of this page in stories founded by the founder's page make up that share of the
 * founder page's words. A syndicated article is most of both pages (its one-line items count
 * with it); a brief in a digest is all of its founding page; a footer is a small part of both;
 * a one-line page has no passage long enough to share. Members that do not corroborate stay in
 * the story (search collapses them with it, and the origin rules see them) but add no host.
 *
 * The judgement is against the founding page, so a short founding page that is mostly furniture
 * would make every later carrier of that furniture count, and a short later page likewise counts
 * itself. Document frequency closes that: a host for which the story is a minor part of its page
 * (under `SHARED_CONTENT_SHARE` of its words, the first side above) is a furniture host, and a
 * story with at least `FURNITURE_HOSTS_MIN` furniture hosts, making up at least
 * `FURNITURE_HOSTS_SHARE` of its hosts, is furniture everywhere: it counts one source, and its
 * indexed passages are rewritten with that. (Boilerplate filters drop a line that many documents repeat; here the
 * repetition counts only where the line is a minor part of the page.)
 *
 * Members are kept compactly (exact-text hash, host, owner, time, page, whether it corroborates)
 * for the independent host count and the origin rules. The state is appended to
 * `DATA_DIR/stories.tsv` at each commit and replayed at start, so story ids are stable across runs:
 *
 *   s <TAB> story id <TAB> founder signature (32 bytes, base64) <TAB> founder page's words
 *   h <TAB> host name                 (numbers hosts from 0 in order of appearance)
 *   o <TAB> owner                     (numbers owners likewise)
 *   m <TAB> story <TAB> exact-text hash (16 hex) <TAB> time <TAB> host number <TAB> owner number <TAB> page key (8 hex) <TAB> kind
 *
 * where kind is 1 (corroborates, the story is a major part of its page), 2 (corroborates, a minor
 * part: it carries most of the founding page) or 0 (neither).
 *
 * A log written before the corroboration rule has neither last field: its members all
 * corroborate (they were counted so), and its founders' page words are unknown.
 *
 * A story is numbered by its position among the `s` lines.
 */
import { LineAppender } from './line-appender.js';
import { SIGNATURE_BINS, estimatedJaccard, hex32, mix32, type Fingerprints } from './fingerprint.js';
import { readLineBatches } from './line-reader.js';
import { decideOrigin, type EarlierMembers, type OriginType, type PageOrigin } from './origin.js';
import { formatStoryId } from './story.js';

export const STORIES_FILE = 'stories.tsv';
export const LSH_BANDS = 8;
export const LSH_ROWS = SIGNATURE_BINS / LSH_BANDS;
/** Estimated Jaccard similarity of 3-shingle sets from which a passage joins a story. */
export const SAME_STORY_JACCARD = 0.6;
/**
 * Words (normalised tokens) a passage needs to join a story by similarity rather than as an exact
 * copy, and to count in what two pages share.
 */
export const MIN_STORY_WORDS = 12;
/** Share of a page's words two pages must have in common for one to corroborate the other. */
export const SHARED_CONTENT_SHARE = 0.5;
/** Furniture hosts (a minor part of their page) from which, making up this share of a story's hosts, the story is furniture. */
export const FURNITURE_HOSTS_MIN = 3;
export const FURNITURE_HOSTS_SHARE = 2 / 3;
/** The words of a founder page a log from before the rule did not record: never "mostly shared". */
const UNKNOWN_WORDS = 0xffffffff;
/** Past this many members a story keeps a set of its hosts instead of walking its members. */
const MEMBER_WALK_LIMIT = 64;
const INITIAL_CAPACITY = 1024;

/** How a member carries its story: see the module comment (the log writes the number). */
const enum MemberKind {
  /** Not as content: adds no host. */
  None = 0,
  /** As content, a major part of its page (or the founder's host). */
  Major = 1,
  /** As content, a minor part of its page that carries most of the founding page. */
  Minor = 2,
}

/** What the members of one page share. */
export interface PageMember {
  host: string;
  owner: string;
  /** published_at, else fetched_at: what "earlier" is measured by. */
  time: number;
  /** A 32-bit hash of the page id: passages of the same page are not each other's copies. */
  pageKey: number;
  pageOrigin: PageOrigin;
}

export interface StoryAssignment {
  story: number;
  storyId: string;
  originType: OriginType;
}

/** A story whose indexed passages must be rewritten with a new independent host count. */
export interface StoryUpdate {
  storyId: string;
  independentSources: number;
}

function grown<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(array: T, length: number, fill?: number): T {
  const Constructor = array.constructor as new (length: number) => T;
  const next = new Constructor(length);
  next.set(array);
  if (fill !== undefined) next.fill(fill, array.length);
  return next;
}

function sanitise(field: string): string {
  return field.replace(/[\t\r\n]/g, ' ');
}

export class StoryClusters {
  // Stories, by ordinal.
  private storyCount = 0;
  private storyCapacity = INITIAL_CAPACITY;
  private storyIdHi = new Uint32Array(INITIAL_CAPACITY);
  private storyIdLo = new Uint32Array(INITIAL_CAPACITY);
  private storySignature = new Uint8Array(INITIAL_CAPACITY * SIGNATURE_BINS);
  /** Corroborating hosts; all hosts with a member; hosts whose first member was a minor part of its page. */
  private storyHosts = new Uint32Array(INITIAL_CAPACITY);
  private storyAllHosts = new Uint32Array(INITIAL_CAPACITY);
  private storyMinorHosts = new Uint32Array(INITIAL_CAPACITY);
  private storyMembers = new Uint32Array(INITIAL_CAPACITY);
  private storyFirstMember = new Int32Array(INITIAL_CAPACITY).fill(-1);
  /** The founding member's host and page key, and its page's words. */
  private storyFounderHost = new Int32Array(INITIAL_CAPACITY).fill(-1);
  private storyFounderPage = new Uint32Array(INITIAL_CAPACITY);
  private storyFounderWords = new Uint32Array(INITIAL_CAPACITY);
  /** The host count the story's indexed passages were last written with (0: none sent yet). */
  private storySentCount = new Uint32Array(INITIAL_CAPACITY);
  private storyFirstSentWindow = new Uint32Array(INITIAL_CAPACITY);
  private storyLastSentWindow = new Uint32Array(INITIAL_CAPACITY);
  private storyVisit = new Uint32Array(INITIAL_CAPACITY);
  private visitEpoch = 0;
  /** Past MEMBER_WALK_LIMIT members: every host of the story, and its corroborating hosts. */
  private readonly largeStoryHosts = new Map<number, Set<number>>();
  private readonly largeStoryCountedHosts = new Map<number, Set<number>>();

  // The LSH index: per band, a direct-mapped table of [key, story] heads, and per story and band a
  // [key, next story] link. Keys sit beside the pointers: the walk is bound by cache misses.
  private headBits = 12;
  private bandHeads = new Int32Array(2 * (LSH_BANDS << 12)).fill(-1);
  private bandLinks = new Int32Array(2 * INITIAL_CAPACITY * LSH_BANDS).fill(-1);

  // Members.
  private memberCount = 0;
  private memberCapacity = INITIAL_CAPACITY;
  private memberNext = new Int32Array(INITIAL_CAPACITY);
  private memberExactHi = new Uint32Array(INITIAL_CAPACITY);
  private memberExactLo = new Uint32Array(INITIAL_CAPACITY);
  private memberHost = new Int32Array(INITIAL_CAPACITY);
  private memberOwner = new Int32Array(INITIAL_CAPACITY);
  private memberTime = new Float64Array(INITIAL_CAPACITY);
  private memberPage = new Uint32Array(INITIAL_CAPACITY);
  /** 1 when the member adds its host to the story's independent sources. */
  private memberCounts = new Uint8Array(INITIAL_CAPACITY);

  private readonly hostNames: string[] = [];
  private readonly hostIndex = new Map<string, number>();
  private readonly ownerNames: string[] = [];
  private readonly ownerIndex = new Map<string, number>();

  /** Commit windows of this run, from 1: passages sent in the current one are not readable yet. */
  private window = 1;
  private dirty = new Set<number>();
  private log: LineAppender | undefined;

  /** Replay `path` (when it exists) and append to it from now on. */
  static async open(path: string): Promise<StoryClusters> {
    const clusters = new StoryClusters();
    await clusters.replay(path);
    clusters.log = LineAppender.open(path);
    return clusters;
  }

  /** A state with no file behind it (tests, and `buildPassages` without a run). */
  static inMemory(): StoryClusters {
    return new StoryClusters();
  }

  get stories(): number {
    return this.storyCount;
  }

  get members(): number {
    return this.memberCount;
  }

  storyIdOf(story: number): string {
    return formatStoryId(this.storyIdHi[story], this.storyIdLo[story]);
  }

  /** Corroborating hosts, or 1 for a story that is furniture on most of the hosts that carry it. */
  independentSources(story: number): number {
    const minor = this.storyMinorHosts[story];
    if (minor >= FURNITURE_HOSTS_MIN && minor >= FURNITURE_HOSTS_SHARE * this.storyAllHosts[story]) return 1;
    return this.storyHosts[story];
  }

  /**
   * Cluster every passage of a page (`fingerprints` holds the page's passages, in order): each
   * passage's story and origin type.
   */
  assignPage(fingerprints: Fingerprints, page: PageMember): StoryAssignment[] {
    const count = fingerprints.count;
    const host = this.intern(page.host, this.hostNames, this.hostIndex, 'h');
    const owner = this.intern(page.owner, this.ownerNames, this.ownerIndex, 'o');
    // Words of the passages long enough to corroborate: what pages share is measured in them.
    let pageWords = 0;
    for (let index = 0; index < count; index++) if (fingerprints.tokens[index] >= MIN_STORY_WORDS) pageWords += fingerprints.tokens[index];
    // The stories the passages join, before this page adds any, and which of them the page
    // carries as content (see the module comment).
    const found = new Int32Array(count);
    for (let index = 0; index < count; index++) found[index] = this.findStory(fingerprints, index);
    const sharing = this.contentSharing(found, fingerprints, host, pageWords);
    const assignments: StoryAssignment[] = [];
    // Stories founded by this page's earlier passages, by band key: a passage that found no story
    // above may join one of them, and only them (every older story was looked up already).
    const founded = new PageFoundedStories();
    for (let index = 0; index < count; index++) {
      const exactHi = fingerprints.exactHi[index];
      const exactLo = fingerprints.exactLo[index];
      const story = found[index] >= 0 ? found[index] : this.findFoundedStory(fingerprints, index, founded);
      let assigned: number;
      let originType: OriginType;
      if (story < 0) {
        assigned = this.createStory(exactHi, exactLo, fingerprints.signatures, index * SIGNATURE_BINS, pageWords);
        if (index + 1 < count) for (let band = 0; band < LSH_BANDS; band++) founded.add(band, this.bandLinks[(assigned * LSH_BANDS + band) * 2], assigned);
        originType = decideOrigin(page.pageOrigin, { any: false, verbatimElsewhere: false, sameOwner: false });
        this.addMember(assigned, exactHi, exactLo, host, owner, page.time, page.pageKey, MemberKind.Major);
      } else {
        assigned = story;
        const { earlier, duplicate } = this.earlierMembers(story, exactHi, exactLo, host, owner, page.time, page.pageKey);
        originType = decideOrigin(page.pageOrigin, earlier);
        const kind = this.storyFounderHost[story] === host ? MemberKind.Major : (sharing.get(story) ?? MemberKind.None);
        // The same text from the same host (a re-ingest, or a host repeating itself) adds nothing.
        if (!duplicate) this.addMember(story, exactHi, exactLo, host, owner, page.time, page.pageKey, kind);
      }
      assignments.push({ story: assigned, storyId: this.storyIdOf(assigned), originType });
    }
    return assignments;
  }

  /**
   * The found stories (of another founding host) this page carries as content: its passages of
   * at least MIN_STORY_WORDS words in stories the founder's host carries too make up
   * `SHARED_CONTENT_SHARE` of this page's words in such passages, or those in stories founded by
   * the founder's page make up that share of the founder page's. Passages shorter than that
   * follow their page: a syndicated article's one-line items count, a one-line page does not.
   */
  private contentSharing(found: Int32Array, fingerprints: Fingerprints, host: number, pageWords: number): Map<number, MemberKind> {
    const sharing = new Map<number, MemberKind>();
    const founderHosts = new Map<number, number>();
    const founderPages = new Map<number, number>();
    for (const story of found) {
      if (story < 0 || this.storyFounderHost[story] === host) continue;
      founderHosts.set(this.storyFounderHost[story], 0);
      founderPages.set(this.storyFounderPage[story], 0);
    }
    if (founderHosts.size === 0 || pageWords === 0) return sharing;
    for (let index = 0; index < found.length; index++) {
      const story = found[index];
      const words = fingerprints.tokens[index];
      if (story < 0 || words < MIN_STORY_WORDS) continue;
      const founderPage = this.storyFounderPage[story];
      const pageShared = founderPages.get(founderPage);
      if (pageShared !== undefined) founderPages.set(founderPage, pageShared + words);
      // Words of this page in stories each founding host carries (a member of any kind).
      for (const [founderHost, shared] of founderHosts) {
        if (this.storyHasHost(story, founderHost, false)) founderHosts.set(founderHost, shared + words);
      }
    }
    const needed = SHARED_CONTENT_SHARE * pageWords;
    for (const story of found) {
      if (story < 0 || this.storyFounderHost[story] === host) continue;
      const hostShared = founderHosts.get(this.storyFounderHost[story]) ?? 0;
      const pageShared = founderPages.get(this.storyFounderPage[story]) ?? 0;
      const founderWords = this.storyFounderWords[story];
      if (hostShared > 0 && hostShared >= needed) sharing.set(story, MemberKind.Major);
      else if (pageShared > 0 && founderWords !== UNKNOWN_WORDS && pageShared >= SHARED_CONTENT_SHARE * founderWords) sharing.set(story, MemberKind.Minor);
    }
    return sharing;
  }

  /**
   * The host count to write on a passage of `story` that is being sent to its shard now; marks
   * the story as having passages in the index.
   */
  stampSent(story: number): number {
    const count = this.independentSources(story);
    // Window 0 stands for "an earlier run": a replayed story keeps it (its count is non-zero).
    if (this.storySentCount[story] === 0) this.storyFirstSentWindow[story] = this.window;
    this.storySentCount[story] = count;
    this.storyLastSentWindow[story] = this.window;
    return count;
  }

  /**
   * At a commit, after every pending passage was sent: the stories whose indexed passages carry
   * a stale host count and can be rewritten now (their passages committed before this window).
   * Stories with passages sent in this window stay due for the next call, when those passages
   * are committed and readable. Ends the window.
   */
  takeDueRewrites(): StoryUpdate[] {
    const due: StoryUpdate[] = [];
    const carried = new Set<number>();
    for (const story of this.dirty) {
      if (this.storyLastSentWindow[story] === this.window) carried.add(story);
      if (this.storyFirstSentWindow[story] !== this.window) due.push({ storyId: this.storyIdOf(story), independentSources: this.independentSources(story) });
    }
    this.dirty = carried;
    this.window++;
    return due;
  }

  /** Stories still owed a rewrite. */
  get pendingRewrites(): number {
    return this.dirty.size;
  }

  /** Write the state appended since the last flush (after the shards committed). */
  flush(): void {
    this.log?.flush();
  }

  close(): void {
    this.log?.close();
  }

  /** The number of a host or owner name; a new one is logged (`h` or `o` line) as it is numbered. */
  private intern(name: string, names: string[], index: Map<string, number>, kind: 'h' | 'o'): number {
    let found = index.get(name);
    if (found === undefined) {
      found = names.length;
      names.push(name);
      index.set(name, found);
      this.log?.append(`${kind}\t${sanitise(name)}`);
    }
    return found;
  }

  private bandKey(signatures: Uint8Array, offset: number, band: number): number {
    const start = offset + band * LSH_ROWS;
    return (signatures[start] | (signatures[start + 1] << 8) | (signatures[start + 2] << 16) | (signatures[start + 3] << 24)) >>> 0;
  }

  private headSlot(band: number, key: number): number {
    return (band << this.headBits) | (mix32(key ^ Math.imul(band + 1, 0x9e3779b1)) >>> (32 - this.headBits));
  }

  /**
   * The story of the most similar founder at or above the threshold, or -1. A passage of fewer
   * than MIN_STORY_WORDS words only finds a story founded by the same text.
   */
  private findStory(fingerprints: Fingerprints, index: number): number {
    const signatures = fingerprints.signatures;
    const offset = index * SIGNATURE_BINS;
    this.visitEpoch = (this.visitEpoch + 1) >>> 0;
    if (this.visitEpoch === 0) {
      this.storyVisit.fill(0);
      this.visitEpoch = 1;
    }
    const epoch = this.visitEpoch;
    const heads = this.bandHeads;
    const links = this.bandLinks;
    const storyVisit = this.storyVisit;
    let best = -1;
    let bestSimilarity = SAME_STORY_JACCARD;
    for (let band = 0; band < LSH_BANDS; band++) {
      const key = this.bandKey(signatures, offset, band) | 0;
      const slot = this.headSlot(band, key >>> 0) * 2;
      let storyKey = heads[slot];
      for (let story = heads[slot + 1]; story >= 0; ) {
        if (storyKey === key && storyVisit[story] !== epoch) {
          storyVisit[story] = epoch;
          const similarity = this.similarity(fingerprints, index, story);
          if (similarity > bestSimilarity || (similarity === bestSimilarity && (best < 0 || story < best))) {
            best = story;
            bestSimilarity = similarity;
          }
        }
        const next = links[(story * LSH_BANDS + band) * 2 + 1];
        if (next >= 0) storyKey = links[(next * LSH_BANDS + band) * 2];
        story = next;
      }
    }
    return best;
  }

  /** A passage's similarity to a story's founder; 0 unless the same text for a passage of fewer than MIN_STORY_WORDS words. */
  private similarity(fingerprints: Fingerprints, index: number, story: number): number {
    if (fingerprints.tokens[index] < MIN_STORY_WORDS && (this.storyIdHi[story] !== fingerprints.exactHi[index] || this.storyIdLo[story] !== fingerprints.exactLo[index])) return 0;
    return estimatedJaccard(fingerprints.signatures, index * SIGNATURE_BINS, this.storySignature, story * SIGNATURE_BINS);
  }

  /**
   * `findStory` among the stories this page founded (those sharing a band key with the passage),
   * by the same rule: the most similar at or above the threshold, the earliest on a tie; or -1.
   */
  private findFoundedStory(fingerprints: Fingerprints, index: number, founded: PageFoundedStories): number {
    if (founded.empty) return -1;
    const offset = index * SIGNATURE_BINS;
    let best = -1;
    let bestSimilarity = SAME_STORY_JACCARD;
    for (let band = 0; band < LSH_BANDS; band++) {
      for (const story of founded.get(band, this.bandKey(fingerprints.signatures, offset, band) | 0)) {
        const similarity = this.similarity(fingerprints, index, story);
        if (similarity > bestSimilarity || (similarity === bestSimilarity && (best < 0 || story < best))) {
          best = story;
          bestSimilarity = similarity;
        }
      }
    }
    return best;
  }

  private growStories(): void {
    const capacity = this.storyCapacity * 2;
    this.storyIdHi = grown(this.storyIdHi, capacity);
    this.storyIdLo = grown(this.storyIdLo, capacity);
    this.storySignature = grown(this.storySignature, capacity * SIGNATURE_BINS);
    this.storyHosts = grown(this.storyHosts, capacity);
    this.storyMembers = grown(this.storyMembers, capacity);
    this.storyFirstMember = grown(this.storyFirstMember, capacity, -1);
    this.storyFounderHost = grown(this.storyFounderHost, capacity, -1);
    this.storyAllHosts = grown(this.storyAllHosts, capacity);
    this.storyMinorHosts = grown(this.storyMinorHosts, capacity);
    this.storyFounderPage = grown(this.storyFounderPage, capacity);
    this.storyFounderWords = grown(this.storyFounderWords, capacity);
    this.storySentCount = grown(this.storySentCount, capacity);
    this.storyFirstSentWindow = grown(this.storyFirstSentWindow, capacity);
    this.storyLastSentWindow = grown(this.storyLastSentWindow, capacity);
    this.storyVisit = grown(this.storyVisit, capacity);
    this.bandLinks = grown(this.bandLinks, 2 * capacity * LSH_BANDS, -1);
    this.storyCapacity = capacity;
  }

  /** Keep chains short: at least one head per story and band. */
  private rebuildBands(): void {
    this.headBits++;
    this.bandHeads = new Int32Array(2 * (LSH_BANDS << this.headBits)).fill(-1);
    for (let story = 0; story < this.storyCount; story++) this.linkBands(story);
  }

  /** Put `story` at the head of its chain in every band (its keys are in its links already). */
  private linkBands(story: number): void {
    for (let band = 0; band < LSH_BANDS; band++) {
      const link = (story * LSH_BANDS + band) * 2;
      const key = this.bandLinks[link];
      const slot = this.headSlot(band, key >>> 0) * 2;
      this.bandLinks[link + 1] = this.bandHeads[slot + 1];
      this.bandHeads[slot] = key;
      this.bandHeads[slot + 1] = story;
    }
  }

  private createStory(idHi: number, idLo: number, signatures: Uint8Array, offset: number, founderWords: number): number {
    if (this.storyCount === this.storyCapacity) this.growStories();
    const story = this.storyCount++;
    this.storyIdHi[story] = idHi;
    this.storyIdLo[story] = idLo;
    this.storyFounderWords[story] = founderWords;
    this.storySignature.set(signatures.subarray(offset, offset + SIGNATURE_BINS), story * SIGNATURE_BINS);
    for (let band = 0; band < LSH_BANDS; band++) this.bandLinks[(story * LSH_BANDS + band) * 2] = this.bandKey(signatures, offset, band) | 0;
    if (this.storyCount > 1 << this.headBits) this.rebuildBands();
    else this.linkBands(story);
    if (this.log !== undefined) {
      const signature = Buffer.from(signatures.buffer, signatures.byteOffset + offset, SIGNATURE_BINS).toString('base64');
      this.log.append(`s\t${formatStoryId(idHi, idLo)}\t${signature}\t${founderWords}`);
    }
    return story;
  }

  private growMembers(): void {
    const capacity = this.memberCapacity * 2;
    this.memberNext = grown(this.memberNext, capacity);
    this.memberExactHi = grown(this.memberExactHi, capacity);
    this.memberExactLo = grown(this.memberExactLo, capacity);
    this.memberHost = grown(this.memberHost, capacity);
    this.memberOwner = grown(this.memberOwner, capacity);
    this.memberTime = grown(this.memberTime, capacity);
    this.memberPage = grown(this.memberPage, capacity);
    this.memberCounts = grown(this.memberCounts, capacity);
    this.memberCapacity = capacity;
  }

  /** Whether `host` has a member in `story` (`counted`: a corroborating one). */
  private storyHasHost(story: number, host: number, counted: boolean): boolean {
    const hosts = (counted ? this.largeStoryCountedHosts : this.largeStoryHosts).get(story);
    if (hosts !== undefined) return hosts.has(host);
    for (let member = this.storyFirstMember[story]; member >= 0; member = this.memberNext[member]) {
      if (this.memberHost[member] === host && (!counted || this.memberCounts[member] === 1)) return true;
    }
    return false;
  }

  private addMember(story: number, exactHi: number, exactLo: number, host: number, owner: number, time: number, pageKey: number, kind: MemberKind, replaying = false): void {
    if (this.memberCount === this.memberCapacity) this.growMembers();
    const counts = kind !== MemberKind.None;
    const sourcesBefore = this.independentSources(story);
    if (!this.storyHasHost(story, host, false)) {
      this.storyAllHosts[story]++;
      if (kind !== MemberKind.Major) this.storyMinorHosts[story]++;
    }
    const newHost = counts && !this.storyHasHost(story, host, true);
    if (this.storyMembers[story] === 0) {
      this.storyFounderHost[story] = host;
      this.storyFounderPage[story] = pageKey;
    }
    const member = this.memberCount++;
    this.memberNext[member] = this.storyFirstMember[story];
    this.memberExactHi[member] = exactHi;
    this.memberExactLo[member] = exactLo;
    this.memberHost[member] = host;
    this.memberOwner[member] = owner;
    this.memberTime[member] = time;
    this.memberPage[member] = pageKey;
    this.memberCounts[member] = counts ? 1 : 0;
    this.storyFirstMember[story] = member;
    this.storyMembers[story]++;
    const largeHosts = this.largeStoryHosts.get(story);
    if (largeHosts !== undefined) {
      largeHosts.add(host);
      if (counts) this.largeStoryCountedHosts.get(story)?.add(host);
    } else if (this.storyMembers[story] > MEMBER_WALK_LIMIT) {
      const hosts = new Set<number>();
      const countedHosts = new Set<number>();
      for (let other = member; other >= 0; other = this.memberNext[other]) {
        hosts.add(this.memberHost[other]);
        if (this.memberCounts[other] === 1) countedHosts.add(this.memberHost[other]);
      }
      this.largeStoryHosts.set(story, hosts);
      this.largeStoryCountedHosts.set(story, countedHosts);
    }
    if (newHost) this.storyHosts[story]++;
    // Passages already sent carry the old count: rewrite them at the next commit.
    if (!replaying && this.storySentCount[story] > 0 && this.independentSources(story) !== sourcesBefore) this.dirty.add(story);
    if (!replaying) this.log?.append(`m\t${story}\t${hex32(exactHi)}${hex32(exactLo)}\t${time}\t${host}\t${owner}\t${hex32(pageKey)}\t${kind}`);
  }

  /**
   * What the story's members that came before this passage say about it, and whether the story
   * already holds this very text from this host (then nothing is added).
   */
  private earlierMembers(
    story: number,
    exactHi: number,
    exactLo: number,
    host: number,
    owner: number,
    time: number,
    pageKey: number,
  ): { earlier: EarlierMembers; duplicate: boolean } {
    const earlier: EarlierMembers = { any: false, verbatimElsewhere: false, sameOwner: false };
    // A passage already in the story (a re-ingest) is judged against what preceded it.
    let self = this.memberCount;
    for (let member = this.storyFirstMember[story]; member >= 0; member = this.memberNext[member]) {
      if (this.memberPage[member] === pageKey && this.memberHost[member] === host && this.memberExactHi[member] === exactHi && this.memberExactLo[member] === exactLo) {
        self = member;
        break;
      }
    }
    let duplicate = self < this.memberCount;
    for (let member = this.storyFirstMember[story]; member >= 0; member = this.memberNext[member]) {
      const sameText = this.memberExactHi[member] === exactHi && this.memberExactLo[member] === exactLo;
      if (sameText && this.memberHost[member] === host) duplicate = true;
      if (this.memberPage[member] === pageKey) continue;
      const memberTime = this.memberTime[member];
      if (memberTime > time || (memberTime === time && member > self)) continue;
      earlier.any = true;
      if (sameText && this.memberHost[member] !== host) earlier.verbatimElsewhere = true;
      if (this.memberOwner[member] === owner) earlier.sameOwner = true;
    }
    return { earlier, duplicate };
  }

  private async replay(path: string): Promise<void> {
    let batches: AsyncGenerator<{ lines: string[] }>;
    try {
      batches = readLineBatches(path);
      for await (const batch of batches) for (const line of batch.lines) this.replayLine(line);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    // Everything replayed is in the index already, written with the counts it had then.
    for (let story = 0; story < this.storyCount; story++) this.storySentCount[story] = this.independentSources(story);
  }

  /** Apply one line of the log; torn or foreign lines (a crash mid-append) are passed over. */
  private replayLine(line: string): void {
    const tab = line.indexOf('\t');
    if (tab !== 1) return;
    const kind = line[0];
    if (kind === 'h' || kind === 'o') {
      const name = line.slice(2);
      if (kind === 'h') this.intern(name, this.hostNames, this.hostIndex, 'h');
      else this.intern(name, this.ownerNames, this.ownerIndex, 'o');
      return;
    }
    const fields = line.split('\t');
    if (kind === 's' && (fields.length === 3 || fields.length === 4) && fields[1].length === 17) {
      const signature = Buffer.from(fields[2], 'base64');
      if (signature.length !== SIGNATURE_BINS) return;
      const founderWords = fields.length === 4 ? Number(fields[3]) : UNKNOWN_WORDS;
      if (!Number.isInteger(founderWords) || founderWords < 0 || founderWords > UNKNOWN_WORDS) return;
      // No log is open while replaying, so nothing is appended again.
      this.createStory(parseInt(fields[1].slice(1, 9), 16), parseInt(fields[1].slice(9, 17), 16), signature, 0, founderWords);
      return;
    }
    if (kind === 'm' && (fields.length === 7 || (fields.length === 8 && /^[012]$/.test(fields[7]))) && fields[2].length === 16 && fields[6].length === 8) {
      const story = Number(fields[1]);
      const time = Number(fields[3]);
      const host = Number(fields[4]);
      const owner = Number(fields[5]);
      if (!Number.isInteger(story) || story < 0 || story >= this.storyCount || !Number.isFinite(time)) return;
      if (!Number.isInteger(host) || host < 0 || host >= this.hostNames.length || !Number.isInteger(owner) || owner < 0 || owner >= this.ownerNames.length) return;
      const memberKind = fields.length === 7 ? MemberKind.Major : (Number(fields[7]) as MemberKind);
      this.addMember(story, parseInt(fields[2].slice(0, 8), 16), parseInt(fields[2].slice(8), 16), host, owner, time, parseInt(fields[6], 16), memberKind, true);
    }
  }
}

/** The stories one page founded, per LSH band and key (a page founds a few: a map, not the run's tables). */
class PageFoundedStories {
  private readonly byBand: Array<Map<number, number[]>> = [];
  empty = true;

  add(band: number, key: number, story: number): void {
    const keys = (this.byBand[band] ??= new Map());
    const stories = keys.get(key);
    if (stories === undefined) keys.set(key, [story]);
    else stories.push(story);
    this.empty = false;
  }

  get(band: number, key: number): readonly number[] {
    return this.byBand[band]?.get(key) ?? NONE;
  }
}

const NONE: readonly number[] = [];
