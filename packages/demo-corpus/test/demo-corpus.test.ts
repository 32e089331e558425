import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import { CONTENT_TYPES } from '@evidence/schemas';
import {
  DEMO_OWNERS,
  DEMO_REMOVAL_REASONS,
  VERTICALS,
  generateDemoCorpus,
  isRemoval,
  parseArgs,
  registrableDomain,
  UsageError,
  writeDemoCorpus,
  type DemoPageRecord,
  type DemoRecord,
  type DemoRemovalRecord,
} from '../src/demo-corpus.js';

const NOW = 1767225600; // 2026-01-01T00:00:00Z
const DAY = 86400;

function collect(passages: number, seed = 1, now = NOW): DemoRecord[] {
  return [...generateDemoCorpus({ passages, now, seed })];
}

function wordCount(paragraph: string): number {
  return paragraph.split(/\s+/).filter(Boolean).length;
}

/** Passages as ingest counts them: one per passage record, one per 8..200-word paragraph of a page. */
function passageCount(records: DemoRecord[]): number {
  let count = 0;
  for (const record of records) {
    if (isRemoval(record)) continue;
    if (record.id) count += 1;
    else for (const paragraph of record.text.split('\n\n')) if (wordCount(paragraph) >= 8 && wordCount(paragraph) <= 200) count++;
  }
  return count;
}

function hostOf(url: string): string {
  return new URL(url).host;
}

function firstParagraph(record: DemoPageRecord): string {
  return record.text.split('\n\n')[0];
}

let cached: DemoRecord[] | null = null;
function corpus20k(): DemoRecord[] {
  cached ??= collect(20000);
  return cached;
}
const pages = () => corpus20k().filter((record): record is DemoPageRecord => !isRemoval(record));
const removals = () => corpus20k().filter(isRemoval);

/** sha256 of the JSONL the CLI writes for these options. */
function corpusSha256(passages: number, seed: number, now: number): string {
  const directory = mkdtempSync(join(tmpdir(), 'demo-corpus-'));
  try {
    const file = join(directory, 'corpus.jsonl');
    const fileDescriptor = openSync(file, 'w');
    try {
      writeDemoCorpus(fileDescriptor, { passages, seed, now });
    } finally {
      closeSync(fileDescriptor);
    }
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('demo corpus: determinism and size', () => {
  // Pinned bytes: a change to the generator that alters its output (a renamed variable read in
  // the wrong place, one more draw from the PRNG) changes these. `npm run demo-corpus -- --passages
  // 500 --seed 2 --now 1795000000 | sha256sum` prints the first one.
  it('writes the same bytes as it always has (sha256 pinned)', () => {
    expect(corpusSha256(500, 2, 1795000000)).toBe('28abf4a236a2a7f341c979b9e799a9da8ed8ba2a94f67566c8da22bc3b6bff59');
    expect(corpusSha256(20000, 1, NOW)).toBe('943a3e2864340bcbeaaecc3c38824e878a2bb2b8838668492441f19f6f017c68');
  });

  it('same options give identical output; another seed differs', () => {
    const first = collect(2000).map((record) => JSON.stringify(record));
    const second = collect(2000).map((record) => JSON.stringify(record));
    expect(first).toEqual(second);
    const other = collect(2000, 2).map((record) => JSON.stringify(record));
    expect(other).not.toEqual(first);
  });

  it('hits the requested passage count (2,000 and 20,000)', () => {
    for (const [requested, records] of [
      [2000, collect(2000)],
      [20000, corpus20k()],
    ] as const) {
      const counted = passageCount(records);
      expect(Math.abs(counted - requested) / requested).toBeLessThanOrEqual(0.01);
      expect(counted).toBe(requested);
    }
    expect(passageCount(collect(1))).toBe(1);
    expect(collect(0)).toEqual([]);
  });

  it('is lazy: the first records of a huge corpus come without generating it all', () => {
    const iterator = generateDemoCorpus({ passages: 50_000_000, now: NOW })[Symbol.iterator]();
    const first: DemoRecord[] = [];
    for (let i = 0; i < 50; i++) first.push(iterator.next().value as DemoRecord);
    expect(first.every((record) => typeof record.url === 'string')).toBe(true);
  });

  it('keeps every page paragraph within 30..160 words (one passage each)', () => {
    for (const record of pages()) {
      for (const paragraph of record.text.split('\n\n')) {
        const words = wordCount(paragraph);
        expect(words, paragraph).toBeGreaterThanOrEqual(30);
        expect(words, paragraph).toBeLessThanOrEqual(160);
      }
      if (record.id) expect(record.text.includes('\n\n')).toBe(false);
    }
  });
});

describe('demo corpus: record format', () => {
  it('every record has the required fields and valid enums', () => {
    const verticals = new Set<string>(VERTICALS);
    const types = new Set<string>(CONTENT_TYPES);
    for (const record of corpus20k()) {
      expect(() => new URL(record.url)).not.toThrow();
      expect(record.url.startsWith('https://')).toBe(true);
      if (isRemoval(record)) {
        expect(Object.keys(record).sort()).toEqual(['removed', 'removed_at', 'url']);
        expect(DEMO_REMOVAL_REASONS).toContain(record.removed);
        expect(Number.isInteger(record.removed_at)).toBe(true);
        continue;
      }
      expect(typeof record.title).toBe('string');
      expect(record.title.length).toBeGreaterThan(0);
      expect(typeof record.text).toBe('string');
      expect(record.text.length).toBeGreaterThan(0);
      expect(Number.isInteger(record.fetched_at)).toBe(true);
      if (record.published_at !== undefined) expect(Number.isInteger(record.published_at)).toBe(true);
      if (record.source !== undefined) expect(['cc', 'delta']).toContain(record.source);
      if (record.lang !== undefined) expect(['en', 'de', 'fr', 'es']).toContain(record.lang);
      if (record.vertical !== undefined) expect(verticals.has(record.vertical)).toBe(true);
      if (record.content_type !== undefined) expect(types.has(record.content_type)).toBe(true);
      if (record.safety !== undefined) expect(['safe', 'explicit']).toContain(record.safety);
      if (record.authority !== undefined) expect(['high', 'medium', 'low']).toContain(record.authority);
      if (record.host_rank !== undefined) {
        expect(record.host_rank).toBeGreaterThanOrEqual(0);
        expect(record.host_rank).toBeLessThanOrEqual(1);
      }
      if (record.quality !== undefined) {
        expect(Number.isInteger(record.quality)).toBe(true);
        expect(record.quality).toBeGreaterThanOrEqual(0);
        expect(record.quality).toBeLessThanOrEqual(100);
      }
      if (record.topics !== undefined) expect(record.topics.every((t) => typeof t === 'string')).toBe(true);
      if (record.id !== undefined) expect(record.id).toMatch(/^p[0-9a-f]{12}:\d+$/);
      if (record.owner !== undefined) expect(Object.values(DEMO_OWNERS)).toContain(record.owner);
      expect((record as unknown as Record<string, unknown>).embedding).toBeUndefined();
    }
  });

  it('has no time after now; published <= fetched; delta is recent; removals follow their page', () => {
    const seen = new Map<string, number>();
    const removed = new Set<string>();
    for (const record of corpus20k()) {
      if (isRemoval(record)) {
        const fetched = seen.get(record.url);
        expect(fetched, `removal of unseen ${record.url}`).toBeDefined();
        expect(record.removed_at).toBeGreaterThan(fetched as number);
        expect(record.removed_at).toBeLessThanOrEqual(NOW);
        expect(removed.has(record.url), `removed twice: ${record.url}`).toBe(false);
        removed.add(record.url);
        continue;
      }
      expect(removed.has(record.url), `emitted after removal: ${record.url}`).toBe(false);
      // A URL seen again is a re-crawl: strictly later.
      if (seen.has(record.url) && record.id === undefined) expect(record.fetched_at).toBeGreaterThan(seen.get(record.url) as number);
      expect(record.fetched_at).toBeLessThanOrEqual(NOW);
      expect(record.fetched_at).toBeGreaterThan(NOW - 731 * DAY);
      if (record.published_at !== undefined) expect(record.published_at).toBeLessThanOrEqual(record.fetched_at);
      if (record.source === 'delta') expect(record.fetched_at).toBeGreaterThanOrEqual(NOW - 30 * DAY);
      seen.set(record.url, Math.max(seen.get(record.url) ?? 0, record.fetched_at));
    }
  });

  it('links point at pages of the corpus and some hosts are heavily linked', () => {
    const urls = new Set(pages().map((record) => record.url));
    const inDegree = new Map<string, number>();
    let links = 0;
    for (const record of pages()) {
      for (const link of record.links ?? []) {
        expect(urls.has(link), link).toBe(true);
        links++;
        inDegree.set(hostOf(link), (inDegree.get(hostOf(link)) ?? 0) + 1);
      }
    }
    expect(links).toBeGreaterThan(1000);
    const mostLinked = Math.max(...inDegree.values());
    expect(mostLinked).toBeGreaterThan(links / 50);
  });
});

describe('demo corpus: features in 20,000 passages', () => {
  it('covers every vertical, content type, language and both sources', () => {
    const pagesOnly = pages();
    for (const vertical of VERTICALS) expect(pagesOnly.some((record) => record.vertical === vertical), vertical).toBe(true);
    for (const contentType of CONTENT_TYPES) expect(pagesOnly.some((record) => record.content_type === contentType), contentType).toBe(true);
    for (const lang of ['en', 'de', 'fr', 'es']) expect(pagesOnly.some((record) => record.lang === lang), lang).toBe(true);
    expect(pagesOnly.some((record) => record.lang === undefined)).toBe(true);
    expect(pagesOnly.some((record) => record.lang === 'de' && /\b(und|der|die|das)\b/.test(record.text))).toBe(true);
    expect(pagesOnly.some((record) => record.lang === 'fr' && /\b(le|la|les|des)\b/.test(record.text) && /\b(est|sur)\b/.test(record.text))).toBe(true);
    expect(pagesOnly.some((record) => record.lang === 'es' && /\b(el|los|las)\b/.test(record.text) && /\b(que|según)\b/i.test(record.text))).toBe(true);
    expect(pagesOnly.some((record) => record.source === 'cc')).toBe(true);
    expect(pagesOnly.some((record) => record.source === 'delta')).toBe(true);
    const delta = pagesOnly.filter((record) => record.source === 'delta').length / pagesOnly.length;
    expect(delta).toBeGreaterThan(0.1);
    expect(delta).toBeLessThan(0.35);
  });

  it('has hosts of every trust level and tld variety', () => {
    const hosts = new Set(pages().map((record) => hostOf(record.url)));
    expect(hosts.size).toBeGreaterThan(150);
    for (const host of ['www.fda.gov', 'www.ox.ac.uk', 'doc.rust-lang.org', 'github.com', 'arxiv.org', 'www.associatedwire.com']) {
      expect(hosts.has(host), host).toBe(true);
    }
    const tlds = new Set([...hosts].map((host) => host.split('.').slice(-2).join('.')).map((t) => (/^(co|ac|gov|org)\.uk$/.test(t) ? t : t.split('.').pop())));
    for (const t of ['com', 'org', 'net', 'edu', 'gov', 'io', 'co.uk', 'ac.uk', 'gov.uk', 'de', 'fr', 'es']) expect(tlds.has(t), t).toBe(true);
    expect(pages().some((record) => record.host_rank !== undefined && record.host_rank < 0.2)).toBe(true);
    const rank = (host: string) => pages().find((record) => hostOf(record.url) === host && record.host_rank !== undefined)?.host_rank ?? 0;
    expect(rank('www.fda.gov')).toBeGreaterThan(0.85);
  });

  it('has every removal reason', () => {
    const reasons = new Set(removals().map((record: DemoRemovalRecord) => record.removed));
    for (const reason of DEMO_REMOVAL_REASONS) expect(reasons.has(reason), reason).toBe(true);
  });

  it('has a wire story carried by at least 3 other outlets with near-identical text', () => {
    const byLead = new Map<string, Set<string>>();
    for (const record of pages()) {
      const lead = firstParagraph(record);
      if (!/^[A-Z .]+(, [A-Z][a-z]+ \d+)? \((AW|GDS|Meridian Press)\) [—-] /.test(lead)) continue;
      const carriers = byLead.get(lead) ?? new Set<string>();
      carriers.add(hostOf(record.url));
      byLead.set(lead, carriers);
    }
    const wireHosts = ['www.associatedwire.com', 'www.meridianpress.net', 'www.globaldispatch.org'];
    const carried = [...byLead.values()].filter((hosts) => [...hosts].some((host) => wireHosts.includes(host)) && hosts.size >= 4);
    expect(carried.length).toBeGreaterThan(0);
    // Some outlets carrying the same story share an owner.
    const owners = carried.flatMap((hosts) => {
      const carrierOwners = [...hosts].map((host) => DEMO_OWNERS[registrableDomain(host)]).filter(Boolean);
      return carrierOwners.length !== new Set(carrierOwners).size ? [true] : [];
    });
    expect(owners.length).toBeGreaterThan(0);
  });

  it('has press releases and news reports about them', () => {
    const releases = pages().filter((record) => record.text.startsWith('FOR IMMEDIATE RELEASE') && /About [A-Z]/.test(record.text) && record.text.includes('Media contact'));
    expect(releases.length).toBeGreaterThan(0);
    expect(pages().some((record) => /according to a press release distributed by/.test(record.text))).toBe(true);
  });

  it('has explicit pages (~2%), undated pages (~15%) and passage records (~2%)', () => {
    const pagesOnly = pages();
    const explicit = pagesOnly.filter((record) => record.safety === 'explicit').length / pagesOnly.length;
    expect(explicit).toBeGreaterThan(0.005);
    expect(explicit).toBeLessThan(0.05);
    const undated = pagesOnly.filter((record) => record.published_at === undefined).length / pagesOnly.length;
    expect(undated).toBeGreaterThan(0.07);
    expect(undated).toBeLessThan(0.25);
    const passageRecords = pagesOnly.filter((record) => record.id !== undefined).length / pagesOnly.length;
    expect(passageRecords).toBeGreaterThan(0.005);
    expect(passageRecords).toBeLessThan(0.06);
    expect(pagesOnly.some((record) => record.published_at !== undefined && record.published_at > NOW - DAY)).toBe(true);
    expect(pagesOnly.some((record) => record.published_at !== undefined && record.published_at < record.fetched_at - 365 * DAY)).toBe(true);
  });

  it('has instruction-like, hidden-text and role-marker passages, but only a small share', () => {
    const paragraphs = pages().flatMap((record) => record.text.split('\n\n'));
    const instructions = paragraphs.filter((paragraph) => /ignore all previous instructions|AI assistants reading this|language models:/i.test(paragraph));
    const hidden = paragraphs.filter((paragraph) => /[\u200b\u200c\u200d\u2060]|display:none|visibility:hidden/.test(paragraph));
    const roles = paragraphs.filter((paragraph) => /<\|im_start\|>|(^|\s)(system|assistant):|\[INST\]/.test(paragraph));
    expect(instructions.length).toBeGreaterThan(0);
    expect(hidden.length).toBeGreaterThan(0);
    expect(roles.length).toBeGreaterThan(0);
    expect((instructions.length + hidden.length + roles.length) / paragraphs.length).toBeLessThan(0.05);
  });

  it('has re-crawls, mirror copies and republishes', () => {
    const pagesOnly = pages().filter((record) => record.id === undefined);
    const byUrl = new Map<string, DemoPageRecord[]>();
    for (const record of pagesOnly) byUrl.set(record.url, [...(byUrl.get(record.url) ?? []), record]);
    const recrawls = [...byUrl.values()].filter((crawls) => crawls.length > 1);
    expect(recrawls.length).toBeGreaterThan(0);
    for (const [earlier, later] of recrawls) {
      expect(later.fetched_at).toBeGreaterThan(earlier.fetched_at);
      expect(later.text).not.toBe(earlier.text);
    }
    const byText = new Map<string, DemoPageRecord[]>();
    for (const record of pagesOnly) byText.set(record.text, [...(byText.get(record.text) ?? []), record]);
    const copies = [...byText.values()].filter((group) => new Set(group.map((record) => hostOf(record.url))).size > 1);
    const mirrors = copies.filter((group) => group.some((record) => /mirror|cache\.|pagemirror/.test(hostOf(record.url))));
    expect(mirrors.length).toBeGreaterThan(0);
    for (const group of mirrors) {
      // A mirror URL is https://mirror-host/<original host><original path>, with the same title and text.
      const mirror = group.find((record) => /mirror|cache\.|pagemirror/.test(hostOf(record.url))) as DemoPageRecord;
      const original = group.find((record) => mirror.url.endsWith(`/${hostOf(record.url)}${new URL(record.url).pathname}`));
      expect(original, mirror.url).toBeDefined();
      expect(mirror.title).toBe(original?.title);
    }
    const republishes = copies.filter((group) => group.every((record) => !/mirror|cache\.|pagemirror/.test(hostOf(record.url))));
    expect(republishes.length).toBeGreaterThan(0);
  });

  it('sets owner on some records and leaves it off others', () => {
    const owned = pages().filter((record) => DEMO_OWNERS[registrableDomain(hostOf(record.url))] !== undefined);
    expect(owned.some((record) => record.owner !== undefined)).toBe(true);
    expect(owned.some((record) => record.owner === undefined)).toBe(true);
    for (const record of owned) if (record.owner) expect(record.owner).toBe(DEMO_OWNERS[registrableDomain(hostOf(record.url))]);
    expect(new Set(Object.values(DEMO_OWNERS)).has('Harbor Media Group')).toBe(true);
  });

  it('keyword queries find on-topic pages of the right vertical', () => {
    const queries: Array<[string, string]> = [
      ['sourdough starter hydration', 'cooking'],
      ['rust borrow checker lifetimes', 'code'],
      ['interest rate inflation central bank', 'finance'],
      ['vaccine trial efficacy', 'health'],
      ['exoplanet atmosphere spectra', 'science'],
      ['marathon training plan', 'sports'],
      ['patagonia hiking trails', 'travel'],
      ['copyright fair use', 'law'],
      ['student loan forgiveness', 'education'],
      ['wildfire evacuation orders', 'news'],
    ];
    for (const [query, vertical] of queries) {
      const words = query.split(' ');
      const hits = pages().filter((record) => {
        const haystack = `${record.title} ${record.text}`.toLowerCase();
        return words.every((word) => haystack.includes(word));
      });
      const labelled = hits.filter((record) => record.vertical !== undefined);
      expect(labelled.length, query).toBeGreaterThan(2);
      const right = labelled.filter((record) => record.vertical === vertical).length;
      expect(right / labelled.length, query).toBeGreaterThan(0.8);
    }
  });
});

describe('demo corpus: CLI flags', () => {
  it('parses flags and defaults', () => {
    expect(parseArgs([], 1700000000)).toEqual({ passages: 20000, now: 1700000000, seed: 1, out: null });
    expect(parseArgs(['--passages', '5', '--now=1700000000', '--seed', '7', '--out', '/tmp/x.jsonl'])).toEqual({
      passages: 5,
      now: 1700000000,
      seed: 7,
      out: '/tmp/x.jsonl',
    });
  });

  it('rejects bad flags naming the flag', () => {
    expect(() => parseArgs(['--passages', 'lots'])).toThrow(/--passages/);
    expect(() => parseArgs(['--seed'])).toThrow(/--seed/);
    expect(() => parseArgs(['--now', '-5'])).toThrow(/--now/);
    expect(() => parseArgs(['--bogus'])).toThrow(/--bogus/);
    expect(() => parseArgs(['--bogus'])).toThrow(UsageError);
  });
});
