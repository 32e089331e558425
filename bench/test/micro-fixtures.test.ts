/** The micro-benchmarks' fixed inputs are what their comments say they are. */
import { describe, expect, it } from 'vitest';
import { groundResponse, specHit, supportedHits } from '@evidence/evidence';
import { GroundResponseSchema, HitSchema, parseParams } from '@evidence/schemas';
import { CANDIDATE_STORIES, poolRequestOf, parseQuery, searchCapability } from '@evidence/server';
import { benchHit, FIXTURE_TOPIC, PUBLISHERS, shardResultOf, shardResults } from '../src/micro/fixtures/hits.js';
import { groundTaskOf, storiesOf } from '../src/micro/fixtures/ground-task.js';
import { SEARCH_QUERY_STRINGS } from '../src/micro/fixtures/query-strings.js';

/** Every field the engine sets on a demo-corpus hit (all but group_size, which only collapse sets). */
const ENGINE_FIELDS = [
  'id', 'url', 'host', 'title', 'vertical', 'host_rank', 'quality', 'fetched_at', 'source', 'story_id', 'score', 'snippet',
  'authority', 'centrality', 'community_id', 'content_type', 'in_degree', 'independent_sources', 'published_at', 'safety', 'tld',
  'topics', 'word_count', 'lang', 'page_id', 'registrable_domain', 'owner', 'origin_type', 'source_role', 'role_confidence',
];

describe('benchHit', () => {
  it('is the same hit for the same index, with every engine field, a valid SPEC hit', () => {
    expect(benchHit(7)).toEqual(benchHit(7));
    expect(benchHit(7)).not.toEqual(benchHit(8));
    const hit = benchHit(3);
    expect(Object.keys(hit).sort()).toEqual([...ENGINE_FIELDS].sort());
    expect(() => HitSchema.strict().parse(specHit(hit))).not.toThrow();
    expect(hit.id.startsWith(`${hit.page_id}:`)).toBe(true);
    expect(hit.word_count).toBe(hit.snippet.split(' ').length);
    expect(hit.snippet.length).toBeGreaterThan(300);
  });

  it('takes story, publisher, score and origin type when given', () => {
    const hit = benchHit(1, { story: 9, publisher: 4, score: 12.5, originType: 'wire' });
    expect(hit.story_id).toBe(benchHit(9).story_id);
    expect(hit.host).toBe(PUBLISHERS[4].host);
    expect(hit.score).toBe(12.5);
    expect(hit.origin_type).toBe('wire');
  });
});

describe('shardResults', () => {
  it('gives distinct hits, each shard in descending score order, scores interleaving across shards', () => {
    const results = shardResults(4, 50);
    expect(results).toHaveLength(4);
    const ids = new Set<string>();
    for (const result of results) {
      expect(result.hits).toHaveLength(50);
      expect(result.total).toBeGreaterThan(50);
      expect(result.timed_out).toBe(false);
      const scores = result.hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((left, right) => right - left));
      for (const hit of result.hits) ids.add(hit.id);
    }
    expect(ids.size).toBe(200);
    expect(results[1].hits[0].score).toBeGreaterThan(results[0].hits[49].score);
    expect(shardResultOf(10).hits).toHaveLength(10);
  });
});

describe('groundTaskOf', () => {
  it('holds the passages over a quarter as many stories (at most CANDIDATE_STORIES), candidates one per story in rank order', () => {
    for (const passages of [10, 100, 200]) {
      const { retrieval } = groundTaskOf(passages);
      const stories = storiesOf(passages);
      expect(stories).toBe(Math.min(CANDIDATE_STORIES, Math.ceil(passages / 4)));
      expect(retrieval.expansion.members).toHaveLength(passages);
      expect(new Set(retrieval.expansion.members.map((hit) => hit.id)).size).toBe(passages);
      expect(new Set(retrieval.expansion.members.map((hit) => hit.story_id)).size).toBe(stories);
      const candidates = retrieval.candidates.hits;
      expect(candidates.map((hit) => hit.story_id)).toEqual(retrieval.expansion.expandedStoryIds);
      expect(new Set(candidates.map((hit) => hit.story_id)).size).toBe(stories);
      expect(candidates.map((hit) => hit.score)).toEqual(candidates.map((hit) => hit.score).sort((left, right) => right - left));
      expect(supportedHits(FIXTURE_TOPIC, 'hybrid', candidates).dropped).toBe(0);
    }
    expect(storiesOf(200)).toBe(CANDIDATE_STORIES);
  });

  it('spreads stories over publishers and origin types, and grounds to a valid, sufficient answer', () => {
    const task = groundTaskOf(100);
    const members = task.retrieval.expansion.members;
    expect(new Set(members.map((hit) => hit.host)).size).toBe(PUBLISHERS.length);
    expect(new Set(members.map((hit) => hit.origin_type))).toEqual(new Set(['original', 'republish', 'wire']));
    const response = groundResponse(task);
    expect(() => GroundResponseSchema.parse(response)).not.toThrow();
    expect(response.status).toBe('sufficient');
    expect(response.evidence.length).toBeGreaterThan(1);
  });

  it('is deterministic apart from the call start', () => {
    const { startedAtMs: _first, ...first } = groundTaskOf(50);
    const { startedAtMs: _second, ...second } = groundTaskOf(50);
    expect(first).toEqual(second);
  });
});

describe('SEARCH_QUERY_STRINGS', () => {
  const parsed = (query: string) => parseParams(searchCapability.params, { ...parseQuery(query) });

  it('are valid GET /search query strings', () => {
    expect(parsed(SEARCH_QUERY_STRINGS.short)).toMatchObject({ q: 'sourdough starter hydration', limit: 10 });
  });

  it('the full one sets every parameter it names, each one a search parameter', () => {
    const names = SEARCH_QUERY_STRINGS.full.split('&').map((pair) => pair.split('=')[0]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(Object.keys(searchCapability.params.shape)).toContain(name);
    const params = parsed(SEARCH_QUERY_STRINGS.full);
    expect(params).toMatchObject({
      q: '"vaccine trial" efficacy -rumour',
      collapse: 'story',
      limit: 25,
      tld: ['gov', 'edu', 'int'],
      content_type: ['news', 'academic', 'document'],
      prefer_recent: true,
      facets: true,
      fields: ['id', 'url', 'title', 'snippet', 'published_at', 'score'],
    });
    const request = poolRequestOf(params, params.mode, params.vertical, params.limit, 1000);
    expect(request.filters).toMatchObject({ vertical: 'health', langs: ['en', 'de'], minHostRank: 0.4, minWords: 40, fetchedFrom: 1_780_000_000 });
  });
});
