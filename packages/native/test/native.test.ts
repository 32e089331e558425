import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ShardReader, ShardWriter, decodeDocument, decodeSearchResult, embed, panicInsideGuard, type Passage, type ShardSearchResult } from '@evidence/native';
import { COLLAPSES, CONTENT_TYPES, ORIGIN_TYPES, SAFETY_LEVELS, SEARCH_MODES, SEARCH_SORTS, SOURCE_ROLES, SOURCES, VECTOR_SOURCES } from '@evidence/schemas';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('native facade', () => {
  it('generated declarations match the committed snapshot (Rust/TS drift shows as a diff)', async () => {
    const declarations = readFileSync(join(packageDir, 'addon.d.cts'), 'utf8');
    await expect(declarations).toMatchFileSnapshot('./__snapshots__/addon.d.cts.snap');
  });

  it('embeds deterministically with the configured dimensions', () => {
    expect(Array.from(embed('sourdough starter', 16))).toEqual(Array.from(embed('sourdough starter', 16)));
    expect(embed('sourdough starter').length).toBe(128);
  });

  it('surfaces engine errors with their code, and closed handles say closed', () => {
    const directory = mkdtempSync(join(tmpdir(), 'native-'));
    try {
      const writer = ShardWriter.open(directory);
      expect(() => ShardWriter.open(directory)).toThrow(/^ELOCKED: /);
      expect(() => writer.add([{ id: '', pageId: 'p', passageNo: 0, url: 'https://a.org/', host: 'a.org', registrableDomain: 'a.org', owner: 'a.org', title: 't', text: 'x', vertical: 'v', lang: 'en', hostRank: 0.5, quality: 1, fetchedAt: 1, source: 'cc', storyId: 's', tld: 'org', wordCount: 1 }])).toThrow(/^EINVALID: /);
      writer.close();
      expect(() => writer.commit()).toThrow(/^ECLOSED: /);
      const reader = ShardReader.open(directory);
      const empty = decodeSearchResult(reader.search({ query: 'anything', limit: 10 }));
      expect(empty).toMatchObject({ hits: [], total: 0, timed_out: false });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('every value of the closed vocabularies the schemas list crosses the binding and comes back as sent', () => {
    const directory = mkdtempSync(join(tmpdir(), 'native-'));
    try {
      for (const vectors of VECTOR_SOURCES) ShardWriter.open(join(directory, vectors), { vectors }).close();
      const writer = ShardWriter.open(join(directory, 'hashing'));
      const longest = Math.max(SOURCES.length, CONTENT_TYPES.length, SAFETY_LEVELS.length, ORIGIN_TYPES.length, SOURCE_ROLES.length);
      const passages: Passage[] = Array.from({ length: longest }, (_, n) => ({
        id: `v${n}:0`, pageId: `v${n}`, passageNo: 0, url: `https://a.org/${n}`, host: 'a.org', registrableDomain: 'a.org', owner: 'a.org',
        title: 'vocabulary', text: 'every value', vertical: 'v', lang: 'en', hostRank: 0.5, quality: 1, fetchedAt: 1, storyId: `s${n}`, tld: 'org', wordCount: 2,
        source: SOURCES[n % SOURCES.length],
        contentType: CONTENT_TYPES[n % CONTENT_TYPES.length],
        safety: SAFETY_LEVELS[n % SAFETY_LEVELS.length],
        originType: ORIGIN_TYPES[n % ORIGIN_TYPES.length],
        sourceRole: SOURCE_ROLES[n % SOURCE_ROLES.length],
      }));
      writer.add(passages);
      writer.commit();
      writer.close();
      const reader = ShardReader.open(join(directory, 'hashing'));
      for (const mode of SEARCH_MODES) {
        for (const sort of SEARCH_SORTS) {
          for (const collapse of COLLAPSES) expect(decodeSearchResult(reader.search({ query: 'vocabulary', mode, sort, collapse, limit: 1 })).total).toBe(longest);
        }
      }
      const sent = passages.map((passage) => [passage.id, passage.source, passage.contentType, passage.safety, passage.originType, passage.sourceRole]);
      const hits = decodeSearchResult(reader.search({ query: '', limit: longest })).hits;
      expect(hits.map((hit) => [hit.id, hit.source, hit.content_type, hit.safety, hit.origin_type, hit.source_role]).sort()).toEqual(sent.sort());
      expect(decodeDocument(reader.document('v0:0')!)).toMatchObject({ source: SOURCES[0], content_type: CONTENT_TYPES[0], origin_type: ORIGIN_TYPES[0], source_role: SOURCE_ROLES[0] });
      // A name outside a vocabulary is refused at the boundary.
      expect(() => reader.search({ query: 'vocabulary', limit: 1, mode: 'fuzzy' as never })).toThrow();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('a hit decoded from its row holds what its document (a map) holds, and leaves absent fields out', () => {
    const directory = mkdtempSync(join(tmpdir(), 'native-'));
    try {
      const writer = ShardWriter.open(directory);
      const base = { passageNo: 0, host: 'a.org', registrableDomain: 'a.org', owner: 'A', vertical: 'v', lang: 'en', hostRank: 0.5, quality: 2, fetchedAt: 7, source: 'cc' as const, tld: 'org', wordCount: 3 };
      writer.add([
        { ...base, id: 'full:0', pageId: 'full', url: 'https://a.org/full', title: 'rye', text: 'rye rye starter', storyId: 's1', contentType: CONTENT_TYPES[0], safety: SAFETY_LEVELS[0], authority: 'expert', topics: ['baking', 'bread'], publishedAt: 5, inDegree: 4, centrality: 0.25 },
        { ...base, id: 'bare:0', pageId: 'bare', url: 'https://a.org/bare', title: 'rye', text: 'rye starter', storyId: 's2' },
      ]);
      writer.commit();
      writer.close();
      const reader = ShardReader.open(directory);
      const hits = decodeSearchResult(reader.search({ query: 'rye', limit: 2 })).hits;
      expect(hits.map((hit) => hit.id)).toEqual(['full:0', 'bare:0']);
      expect(hits[0].score).toBeGreaterThan(hits[1].score); // three rye against one: the score, not another number
      for (const hit of hits) {
        const document = decodeDocument(reader.document(hit.id)!) as unknown as Record<string, unknown>;
        for (const [name, value] of Object.entries(hit)) {
          expect(value, `${hit.id}.${name}`).not.toBeNull();
          expect(value, `${hit.id}.${name}`).not.toBeUndefined();
          if (name === 'snippet') expect(value).toBe(document.text);
          else if (name in document) expect(value, `${hit.id}.${name}`).toEqual(document[name]);
        }
      }
      expect(hits[0]).toMatchObject({ authority: 'expert', topics: ['baking', 'bread'], published_at: 5, in_degree: 4, centrality: 0.25, content_type: CONTENT_TYPES[0], title: 'rye', quality: 2 });
      for (const absent of ['authority', 'topics', 'published_at', 'in_degree', 'centrality', 'content_type', 'safety', 'group_size']) expect(absent in hits[1], absent).toBe(false);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('a panic inside the binding fails the call with EPANIC; the process and the addon go on', () => {
    expect(() => panicInsideGuard('probe')).toThrow(/^EPANIC: the engine panicked: probe/);
    expect(embed('still here', 8).length).toBe(8);
  });

  it('never makes a shard where none is: a missing directory is EMISSING and stays missing', () => {
    const parent = mkdtempSync(join(tmpdir(), 'native-'));
    try {
      const directory = join(parent, 'shards', '1');
      expect(() => ShardReader.open(directory)).toThrow(/^EMISSING: /);
      expect(existsSync(directory)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  describe('on a shard with passages', () => {
    const passage = (n: number): Passage => ({
      id: `p${n}:0`, pageId: `p${n}`, passageNo: 0, url: `https://a.org/${n}`, host: 'a.org', registrableDomain: 'a.org', owner: 'a.org',
      title: `bread ${n}`, text: `bread and water, loaf number ${n} `.repeat(40), vertical: 'cooking', lang: 'en', hostRank: 0.5, quality: 1,
      fetchedAt: 1_700_000_000 + n, source: 'cc', storyId: `s${n}`, tld: 'org', wordCount: 240,
    });
    const withShard = (body: (reader: ShardReader) => void) => {
      const directory = mkdtempSync(join(tmpdir(), 'native-'));
      try {
        const writer = ShardWriter.open(directory);
        writer.add(Array.from({ length: 120 }, (_, n) => passage(n)));
        writer.commit();
        writer.close();
        body(ShardReader.open(directory));
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    };

    it('a limit of 0 counts without ranking, for every sort (was a panic that aborted the process)', () => {
      withShard((reader) => {
        for (const sort of ['relevance', 'recency', 'host_rank', 'quality', 'published', 'words', 'centrality']) {
          for (const query of ['bread', '']) {
            const result = decodeSearchResult(reader.search({ query, limit: 0, sort, facets: true, verticalCounts: true }));
            expect(result.hits, `${sort} ${query}`).toEqual([]);
            expect(result.total, `${sort} ${query}`).toBe(120);
          }
        }
      });
    });

    it('refuses a query nested past the bound with EQUERY instead of overflowing the stack', () => {
      withShard((reader) => {
        expect(() => reader.search({ query: `${'('.repeat(1500)}bread`, limit: 10 })).toThrow(/^EQUERY: .*1500 nested groups, at most 32/);
        expect(() => reader.search({ query: 'water', limit: 10, filters: { term: `${'('.repeat(40)}bread` } })).toThrow(/^EQUERY: /);
        const nested = decodeSearchResult(reader.search({ query: `${'('.repeat(32)}bread${')'.repeat(32)}`, limit: 5 }));
        expect(nested.total).toBe(120);
      });
    });

    it('answers in buffers the JS heap owns: results move between threads and memory stays flat', () => {
      withShard((reader) => {
        const bytes = reader.search({ query: 'bread water', limit: 100 });
        const moved = structuredClone(bytes, { transfer: [bytes.buffer] });
        expect(bytes.length).toBe(0);
        expect(decodeSearchResult(moved).hits).toHaveLength(100);
        // Each answer is ~100 KB: kept in native memory until a collection that never came,
        // 3,000 of them grew the process by ~300 MB; owned by the JS heap they are collected.
        const before = process.memoryUsage().rss;
        for (let call = 0; call < 3000; call++) reader.search({ query: 'bread water', limit: 100 });
        expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
      });
    });
  });
});
