/**
 * The shard worker's half of a story rewrite: find the committed passages of some stories with a
 * reader on the shard, and rebuild each whose independent host count is stale as a full engine
 * passage (the writer can only write whole passages). Everything a passage was written with
 * comes back from the stored hit, the document (links) and the vector.
 */
import { decodeDocument, decodeSearchResult, type NativeDocument, type NativeHit, type Passage, type ShardReader } from '@evidence/native';
import type { StoryRewrite } from './shard-protocol.js';

/** Stories asked about per search; a search that matched more than it returned is split. */
const STORIES_PER_SEARCH = 256;
const HITS_PER_SEARCH = 50_000;

function passageNoOf(id: string): number {
  return Number(id.slice(id.lastIndexOf(':') + 1));
}

/** The passage a hit was written from, with a new independent host count. */
export function passageFromHit(hit: NativeHit, document: NativeDocument | null, vector: number[] | null, independentSources: number): Passage {
  const passage: Passage = {
    id: hit.id,
    pageId: hit.page_id,
    passageNo: document?.passage_no ?? passageNoOf(hit.id),
    url: hit.url,
    host: hit.host,
    registrableDomain: hit.registrable_domain,
    owner: hit.owner,
    title: hit.title,
    text: hit.snippet,
    vertical: hit.vertical,
    lang: hit.lang,
    hostRank: hit.host_rank,
    quality: hit.quality,
    fetchedAt: hit.fetched_at,
    source: hit.source,
    storyId: hit.story_id,
    tld: hit.tld ?? '',
    wordCount: hit.word_count ?? 0,
    independentSources,
  };
  if (hit.published_at !== undefined) passage.publishedAt = hit.published_at;
  if (hit.content_type !== undefined) passage.contentType = hit.content_type;
  if (hit.authority !== undefined) passage.authority = hit.authority;
  if (hit.safety !== undefined) passage.safety = hit.safety;
  if (hit.topics !== undefined && hit.topics.length > 0) passage.topics = hit.topics;
  if (hit.in_degree !== undefined) passage.inDegree = hit.in_degree;
  if (hit.centrality !== undefined) passage.centrality = hit.centrality;
  if (hit.community_id !== undefined) passage.communityId = hit.community_id;
  if (hit.origin_type !== undefined) passage.originType = hit.origin_type;
  if (hit.source_role !== undefined) passage.sourceRole = hit.source_role;
  if (hit.role_confidence !== undefined) passage.roleConfidence = hit.role_confidence;
  if (document?.links !== undefined && document.links.length > 0) passage.links = document.links;
  if (vector !== null) passage.embedding = vector;
  return passage;
}

function searchStories(reader: ShardReader, storyIds: string[]): NativeHit[] {
  const result = decodeSearchResult(reader.search({ query: '', limit: HITS_PER_SEARCH, filters: { storyIds } }));
  if (result.total <= result.hits.length || storyIds.length === 1) return result.hits;
  const half = Math.ceil(storyIds.length / 2);
  return [...searchStories(reader, storyIds.slice(0, half)), ...searchStories(reader, storyIds.slice(half))];
}

/** The passages of `stories` in the reader's commit that need rewriting, rebuilt. */
export function stalePassages(reader: ShardReader, stories: readonly StoryRewrite[], deletedSinceCommit: ReadonlySet<string>): Passage[] {
  const target = new Map<string, number>();
  for (const story of stories) target.set(story.storyId, story.independentSources);
  const ids = [...target.keys()];
  const passages: Passage[] = [];
  for (let start = 0; start < ids.length; start += STORIES_PER_SEARCH) {
    for (const hit of searchStories(reader, ids.slice(start, start + STORIES_PER_SEARCH))) {
      const independentSources = target.get(hit.story_id);
      if (independentSources === undefined || hit.independent_sources === independentSources) continue;
      if (deletedSinceCommit.has(hit.id)) continue;
      const encoded = reader.document(hit.id);
      const document = encoded === null ? null : decodeDocument(encoded);
      passages.push(passageFromHit(hit, document, reader.passageVector(hit.id), independentSources));
    }
  }
  return passages;
}
