import { describe, it, expect } from 'vitest';
import {
  CONTENT_TYPES,
  DEMO_OWNERS,
  REMOVAL_REASONS,
  VERTICALS,
  generateDemoCorpus,
  isRemoval,
  parseArgs,
  registrableDomain,
  UsageError,
  type DemoPageRecord,
  type DemoRecord,
  type DemoRemovalRecord,
} from '../src/demo-corpus.js';

const NOW = 1767225600; // 2026-01-01T00:00:00Z
const DAY = 86400;

function collect(passages: number, seed = 1, now = NOW): DemoRecord[] {
  return [...generateDemoCorpus({ passages, now, seed })];
}

function wordCount(p: string): number {
  return p.split(/\s+/).filter(Boolean).length;
}

/** Passages as ingest counts them: one per passage record, one per 8..200-word paragraph of a page. */
function passageCount(recs: DemoRecord[]): number {
  let n = 0;
  for (const r of recs) {
    if (isRemoval(r)) continue;
    if (r.id) n += 1;
    else for (const p of r.text.split('\n\n')) if (wordCount(p) >= 8 && wordCount(p) <= 200) n++;
  }
  return n;
}

function hostOf(url: string): string {
  return new URL(url).host;
}

function firstParagraph(r: DemoPageRecord): string {
  return r.text.split('\n\n')[0];
}

let cached: DemoRecord[] | null = null;
function corpus20k(): DemoRecord[] {
  cached ??= collect(20000);
  return cached;
}
const pages = () => corpus20k().filter((r): r is DemoPageRecord => !isRemoval(r));
const removals = () => corpus20k().filter(isRemoval);

describe('demo corpus: determinism and size', () => {
  it('same options give identical output; another seed differs', () => {
    const a = collect(2000).map((r) => JSON.stringify(r));
    const b = collect(2000).map((r) => JSON.stringify(r));
    expect(a).toEqual(b);
    const c = collect(2000, 2).map((r) => JSON.stringify(r));
    expect(c).not.toEqual(a);
  });

  it('hits the requested passage count (2,000 and 20,000)', () => {
    for (const [n, recs] of [
      [2000, collect(2000)],
      [20000, corpus20k()],
    ] as const) {
      const got = passageCount(recs);
      expect(Math.abs(got - n) / n).toBeLessThanOrEqual(0.01);
      expect(got).toBe(n);
    }
    expect(passageCount(collect(1))).toBe(1);
    expect(collect(0)).toEqual([]);
  });

  it('is lazy: the first records of a huge corpus come without generating it all', () => {
    const it = generateDemoCorpus({ passages: 50_000_000, now: NOW })[Symbol.iterator]();
    const first: DemoRecord[] = [];
    for (let i = 0; i < 50; i++) first.push(it.next().value as DemoRecord);
    expect(first.every((r) => typeof r.url === 'string')).toBe(true);
  });

  it('keeps every page paragraph within 30..160 words (one passage each)', () => {
    for (const r of pages()) {
      for (const p of r.text.split('\n\n')) {
        const w = wordCount(p);
        expect(w, p).toBeGreaterThanOrEqual(30);
        expect(w, p).toBeLessThanOrEqual(160);
      }
      if (r.id) expect(r.text.includes('\n\n')).toBe(false);
    }
  });
});

describe('demo corpus: record format', () => {
  it('every record has the required fields and valid enums', () => {
    const verticals = new Set<string>(VERTICALS);
    const types = new Set<string>(CONTENT_TYPES);
    for (const r of corpus20k()) {
      expect(() => new URL(r.url)).not.toThrow();
      expect(r.url.startsWith('https://')).toBe(true);
      if (isRemoval(r)) {
        expect(Object.keys(r).sort()).toEqual(['removed', 'removed_at', 'url']);
        expect(REMOVAL_REASONS).toContain(r.removed);
        expect(Number.isInteger(r.removed_at)).toBe(true);
        continue;
      }
      expect(typeof r.title).toBe('string');
      expect(r.title.length).toBeGreaterThan(0);
      expect(typeof r.text).toBe('string');
      expect(r.text.length).toBeGreaterThan(0);
      expect(Number.isInteger(r.fetched_at)).toBe(true);
      if (r.published_at !== undefined) expect(Number.isInteger(r.published_at)).toBe(true);
      if (r.source !== undefined) expect(['cc', 'delta']).toContain(r.source);
      if (r.lang !== undefined) expect(['en', 'de', 'fr', 'es']).toContain(r.lang);
      if (r.vertical !== undefined) expect(verticals.has(r.vertical)).toBe(true);
      if (r.content_type !== undefined) expect(types.has(r.content_type)).toBe(true);
      if (r.safety !== undefined) expect(['safe', 'explicit']).toContain(r.safety);
      if (r.authority !== undefined) expect(['high', 'medium', 'low']).toContain(r.authority);
      if (r.host_rank !== undefined) {
        expect(r.host_rank).toBeGreaterThanOrEqual(0);
        expect(r.host_rank).toBeLessThanOrEqual(1);
      }
      if (r.quality !== undefined) {
        expect(Number.isInteger(r.quality)).toBe(true);
        expect(r.quality).toBeGreaterThanOrEqual(0);
        expect(r.quality).toBeLessThanOrEqual(100);
      }
      if (r.topics !== undefined) expect(r.topics.every((t) => typeof t === 'string')).toBe(true);
      if (r.id !== undefined) expect(r.id).toMatch(/^p[0-9a-f]{12}:\d+$/);
      if (r.owner !== undefined) expect(Object.values(DEMO_OWNERS)).toContain(r.owner);
      expect((r as unknown as Record<string, unknown>).embedding).toBeUndefined();
    }
  });

  it('has no time after now; published <= fetched; delta is recent; removals follow their page', () => {
    const seen = new Map<string, number>();
    const removed = new Set<string>();
    for (const r of corpus20k()) {
      if (isRemoval(r)) {
        const fetched = seen.get(r.url);
        expect(fetched, `removal of unseen ${r.url}`).toBeDefined();
        expect(r.removed_at).toBeGreaterThan(fetched as number);
        expect(r.removed_at).toBeLessThanOrEqual(NOW);
        expect(removed.has(r.url), `removed twice: ${r.url}`).toBe(false);
        removed.add(r.url);
        continue;
      }
      expect(removed.has(r.url), `emitted after removal: ${r.url}`).toBe(false);
      // A URL seen again is a re-crawl: strictly later.
      if (seen.has(r.url) && r.id === undefined) expect(r.fetched_at).toBeGreaterThan(seen.get(r.url) as number);
      expect(r.fetched_at).toBeLessThanOrEqual(NOW);
      expect(r.fetched_at).toBeGreaterThan(NOW - 731 * DAY);
      if (r.published_at !== undefined) expect(r.published_at).toBeLessThanOrEqual(r.fetched_at);
      if (r.source === 'delta') expect(r.fetched_at).toBeGreaterThanOrEqual(NOW - 30 * DAY);
      seen.set(r.url, Math.max(seen.get(r.url) ?? 0, r.fetched_at));
    }
  });

  it('links point at pages of the corpus and some hosts are heavily linked', () => {
    const urls = new Set(pages().map((r) => r.url));
    const inDegree = new Map<string, number>();
    let links = 0;
    for (const r of pages()) {
      for (const l of r.links ?? []) {
        expect(urls.has(l), l).toBe(true);
        links++;
        inDegree.set(hostOf(l), (inDegree.get(hostOf(l)) ?? 0) + 1);
      }
    }
    expect(links).toBeGreaterThan(1000);
    const top = Math.max(...inDegree.values());
    expect(top).toBeGreaterThan(links / 50);
  });
});

describe('demo corpus: features in 20,000 passages', () => {
  it('covers every vertical, content type, language and both sources', () => {
    const ps = pages();
    for (const v of VERTICALS) expect(ps.some((r) => r.vertical === v), v).toBe(true);
    for (const t of CONTENT_TYPES) expect(ps.some((r) => r.content_type === t), t).toBe(true);
    for (const lang of ['en', 'de', 'fr', 'es']) expect(ps.some((r) => r.lang === lang), lang).toBe(true);
    expect(ps.some((r) => r.lang === undefined)).toBe(true);
    expect(ps.some((r) => r.lang === 'de' && /\b(und|der|die|das)\b/.test(r.text))).toBe(true);
    expect(ps.some((r) => r.lang === 'fr' && /\b(le|la|les|des)\b/.test(r.text) && /\b(est|sur)\b/.test(r.text))).toBe(true);
    expect(ps.some((r) => r.lang === 'es' && /\b(el|los|las)\b/.test(r.text) && /\b(que|según)\b/i.test(r.text))).toBe(true);
    expect(ps.some((r) => r.source === 'cc')).toBe(true);
    expect(ps.some((r) => r.source === 'delta')).toBe(true);
    const delta = ps.filter((r) => r.source === 'delta').length / ps.length;
    expect(delta).toBeGreaterThan(0.1);
    expect(delta).toBeLessThan(0.35);
  });

  it('has hosts of every trust level and tld variety', () => {
    const hosts = new Set(pages().map((r) => hostOf(r.url)));
    expect(hosts.size).toBeGreaterThan(150);
    for (const h of ['www.fda.gov', 'www.ox.ac.uk', 'doc.rust-lang.org', 'github.com', 'arxiv.org', 'www.associatedwire.com']) {
      expect(hosts.has(h), h).toBe(true);
    }
    const tlds = new Set([...hosts].map((h) => h.split('.').slice(-2).join('.')).map((t) => (/^(co|ac|gov|org)\.uk$/.test(t) ? t : t.split('.').pop())));
    for (const t of ['com', 'org', 'net', 'edu', 'gov', 'io', 'co.uk', 'ac.uk', 'gov.uk', 'de', 'fr', 'es']) expect(tlds.has(t), t).toBe(true);
    expect(pages().some((r) => r.host_rank !== undefined && r.host_rank < 0.2)).toBe(true);
    const rank = (host: string) => pages().find((r) => hostOf(r.url) === host && r.host_rank !== undefined)?.host_rank ?? 0;
    expect(rank('www.fda.gov')).toBeGreaterThan(0.85);
  });

  it('has every removal reason', () => {
    const reasons = new Set(removals().map((r: DemoRemovalRecord) => r.removed));
    for (const reason of REMOVAL_REASONS) expect(reasons.has(reason), reason).toBe(true);
  });

  it('has a wire story carried by at least 3 other outlets with near-identical text', () => {
    const byLead = new Map<string, Set<string>>();
    for (const r of pages()) {
      const lead = firstParagraph(r);
      if (!/^[A-Z .]+(, [A-Z][a-z]+ \d+)? \((AW|GDS|Meridian Press)\) [—-] /.test(lead)) continue;
      const set = byLead.get(lead) ?? new Set<string>();
      set.add(hostOf(r.url));
      byLead.set(lead, set);
    }
    const wireHosts = ['www.associatedwire.com', 'www.meridianpress.net', 'www.globaldispatch.org'];
    const carried = [...byLead.values()].filter((hosts) => [...hosts].some((h) => wireHosts.includes(h)) && hosts.size >= 4);
    expect(carried.length).toBeGreaterThan(0);
    // Some outlets carrying the same story share an owner.
    const owners = carried.flatMap((hosts) => {
      const o = [...hosts].map((h) => DEMO_OWNERS[registrableDomain(h)]).filter(Boolean);
      return o.length !== new Set(o).size ? [true] : [];
    });
    expect(owners.length).toBeGreaterThan(0);
  });

  it('has press releases and news reports about them', () => {
    const releases = pages().filter((r) => r.text.startsWith('FOR IMMEDIATE RELEASE') && /About [A-Z]/.test(r.text) && r.text.includes('Media contact'));
    expect(releases.length).toBeGreaterThan(0);
    expect(pages().some((r) => /according to a press release distributed by/.test(r.text))).toBe(true);
  });

  it('has explicit pages (~2%), undated pages (~15%) and passage records (~2%)', () => {
    const ps = pages();
    const explicit = ps.filter((r) => r.safety === 'explicit').length / ps.length;
    expect(explicit).toBeGreaterThan(0.005);
    expect(explicit).toBeLessThan(0.05);
    const undated = ps.filter((r) => r.published_at === undefined).length / ps.length;
    expect(undated).toBeGreaterThan(0.07);
    expect(undated).toBeLessThan(0.25);
    const ids = ps.filter((r) => r.id !== undefined).length / ps.length;
    expect(ids).toBeGreaterThan(0.005);
    expect(ids).toBeLessThan(0.06);
    expect(ps.some((r) => r.published_at !== undefined && r.published_at > NOW - DAY)).toBe(true);
    expect(ps.some((r) => r.published_at !== undefined && r.published_at < r.fetched_at - 365 * DAY)).toBe(true);
  });

  it('has instruction-like, hidden-text and role-marker passages, but only a small share', () => {
    const paras = pages().flatMap((r) => r.text.split('\n\n'));
    const instr = paras.filter((p) => /ignore all previous instructions|AI assistants reading this|language models:/i.test(p));
    const hidden = paras.filter((p) => /[\u200b\u200c\u200d\u2060]|display:none|visibility:hidden/.test(p));
    const roles = paras.filter((p) => /<\|im_start\|>|(^|\s)(system|assistant):|\[INST\]/.test(p));
    expect(instr.length).toBeGreaterThan(0);
    expect(hidden.length).toBeGreaterThan(0);
    expect(roles.length).toBeGreaterThan(0);
    expect((instr.length + hidden.length + roles.length) / paras.length).toBeLessThan(0.05);
  });

  it('has re-crawls, mirror copies and republishes', () => {
    const ps = pages().filter((r) => r.id === undefined);
    const byUrl = new Map<string, DemoPageRecord[]>();
    for (const r of ps) byUrl.set(r.url, [...(byUrl.get(r.url) ?? []), r]);
    const recrawls = [...byUrl.values()].filter((v) => v.length > 1);
    expect(recrawls.length).toBeGreaterThan(0);
    for (const [a, b] of recrawls) {
      expect(b.fetched_at).toBeGreaterThan(a.fetched_at);
      expect(b.text).not.toBe(a.text);
    }
    const byText = new Map<string, DemoPageRecord[]>();
    for (const r of ps) byText.set(r.text, [...(byText.get(r.text) ?? []), r]);
    const copies = [...byText.values()].filter((v) => new Set(v.map((r) => hostOf(r.url))).size > 1);
    const mirrors = copies.filter((v) => v.some((r) => /mirror|cache\.|pagemirror/.test(hostOf(r.url))));
    expect(mirrors.length).toBeGreaterThan(0);
    for (const group of mirrors) {
      // A mirror URL is https://mirror-host/<original host><original path>, with the same title and text.
      const mirror = group.find((r) => /mirror|cache\.|pagemirror/.test(hostOf(r.url))) as DemoPageRecord;
      const original = group.find((r) => mirror.url.endsWith(`/${hostOf(r.url)}${new URL(r.url).pathname}`));
      expect(original, mirror.url).toBeDefined();
      expect(mirror.title).toBe(original?.title);
    }
    const republishes = copies.filter((v) => v.every((r) => !/mirror|cache\.|pagemirror/.test(hostOf(r.url))));
    expect(republishes.length).toBeGreaterThan(0);
  });

  it('sets owner on some records and leaves it off others', () => {
    const owned = pages().filter((r) => DEMO_OWNERS[registrableDomain(hostOf(r.url))] !== undefined);
    expect(owned.some((r) => r.owner !== undefined)).toBe(true);
    expect(owned.some((r) => r.owner === undefined)).toBe(true);
    for (const r of owned) if (r.owner) expect(r.owner).toBe(DEMO_OWNERS[registrableDomain(hostOf(r.url))]);
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
    for (const [q, vertical] of queries) {
      const words = q.split(' ');
      const hits = pages().filter((r) => {
        const t = `${r.title} ${r.text}`.toLowerCase();
        return words.every((w) => t.includes(w));
      });
      const labelled = hits.filter((r) => r.vertical !== undefined);
      expect(labelled.length, q).toBeGreaterThan(2);
      const right = labelled.filter((r) => r.vertical === vertical).length;
      expect(right / labelled.length, q).toBeGreaterThan(0.8);
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
