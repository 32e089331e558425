/* Generated from the engine's tables (crates/engine/src/typescript.rs) by `cargo test -p evidence-engine --test generated_typescript`; UPDATE_GENERATED=1 rewrites it. Do not edit. */
import type { SourceName, ContentTypeName, SafetyLevel, OriginType, SourceRole } from '@evidence/schemas';

/**
 * One passage in a result (SPEC 2.1), with the internal provenance the evidence layer reads
 * (`lang` onwards: the server projects hits to the SPEC fields).
 */
export interface Hit {
  id: string;
  url: string;
  host: string;
  title: string;
  vertical: string;
  host_rank: number;
  quality: number;
  fetched_at: number;
  source: SourceName;
  story_id: string;
  score: number;
  /** The passage text. */
  snippet: string;
  authority?: string;
  centrality?: number;
  community_id?: string;
  content_type?: ContentTypeName;
  /** Present when collapse folded rows: how many rows the group had. */
  group_size?: number;
  in_degree?: number;
  independent_sources?: number;
  published_at?: number;
  safety?: SafetyLevel;
  tld?: string;
  topics?: string[];
  word_count?: number;
  lang: string;
  page_id: string;
  registrable_domain: string;
  owner: string;
  origin_type?: OriginType;
  source_role?: SourceRole;
  role_confidence?: number;
}

/** Full text of a passage (SPEC 2.3) plus the internal provenance fields the evidence layer reads. */
export interface Document {
  id: string;
  url: string;
  host: string;
  title: string;
  vertical: string;
  lang: string;
  host_rank: number;
  quality: number;
  text: string;
  page_id: string;
  passage_no: number;
  registrable_domain: string;
  owner: string;
  fetched_at: number;
  published_at?: number;
  source: SourceName;
  story_id: string;
  links?: string[];
  origin_type?: OriginType;
  source_role?: SourceRole;
  role_confidence?: number;
  content_type?: ContentTypeName;
  independent_sources?: number;
}

/** Facet counts over a match set (exact per shard; summed across shards). */
export interface ShardFacets {
  host: Record<string, number>;
  vertical: Record<string, number>;
  source: Record<string, number>;
  content_type: Record<string, number>;
  authority: Record<string, number>;
  topics: Record<string, number>;
  /** publish year (UTC) -> passages; undated passages are not counted */
  published_year: Record<string, number>;
}

/** What `ShardReader.search` encodes (MessagePack), once `decodeSearchResult` has turned its hits' rows (`HitRow`) into hits. */
export interface ShardSearchResult {
  hits: Hit[];
  /** Exact number of live matches in the segments searched. */
  total: number;
  /** The deadline cut the search short: `total` and `hits` cover only part of the shard. */
  timed_out: boolean;
  elapsed_us: number;
  facets?: ShardFacets;
  /** Matches per vertical, when asked for (the router's input). */
  vertical_counts?: Record<string, number>;
  /** Live passages of the shard. */
  passages: number;
  /** How many of them have a vector (semantic and hybrid rankings reach only these). */
  embedded: number;
}

/** `Hit` as a search answer writes it: its fields in order, an absent one as null. */
export type HitRow = [
  id: string,
  url: string,
  host: string,
  title: string,
  vertical: string,
  host_rank: number,
  quality: number,
  fetched_at: number,
  source: SourceName,
  story_id: string,
  score: number,
  snippet: string,
  authority: string | null,
  centrality: number | null,
  community_id: string | null,
  content_type: ContentTypeName | null,
  group_size: number | null,
  in_degree: number | null,
  independent_sources: number | null,
  published_at: number | null,
  safety: SafetyLevel | null,
  tld: string | null,
  topics: string[] | null,
  word_count: number | null,
  lang: string,
  page_id: string,
  registrable_domain: string,
  owner: string,
  origin_type: OriginType | null,
  source_role: SourceRole | null,
  role_confidence: number | null,
];

/** The field at each position of a `HitRow`. */
export const hitRowFields = ['id', 'url', 'host', 'title', 'vertical', 'host_rank', 'quality', 'fetched_at', 'source', 'story_id', 'score', 'snippet', 'authority', 'centrality', 'community_id', 'content_type', 'group_size', 'in_degree', 'independent_sources', 'published_at', 'safety', 'tld', 'topics', 'word_count', 'lang', 'page_id', 'registrable_domain', 'owner', 'origin_type', 'source_role', 'role_confidence'] as const;

/** The `Hit` a row holds (absent fields left out, as in the map form). */
export function hitFromRow(row: HitRow): Hit {
  const record: Hit = {
    id: row[0],
    url: row[1],
    host: row[2],
    title: row[3],
    vertical: row[4],
    host_rank: row[5],
    quality: row[6],
    fetched_at: row[7],
    source: row[8],
    story_id: row[9],
    score: row[10],
    snippet: row[11],
    lang: row[24],
    page_id: row[25],
    registrable_domain: row[26],
    owner: row[27],
  };
  if (row[12] !== null) record.authority = row[12];
  if (row[13] !== null) record.centrality = row[13];
  if (row[14] !== null) record.community_id = row[14];
  if (row[15] !== null) record.content_type = row[15];
  if (row[16] !== null) record.group_size = row[16];
  if (row[17] !== null) record.in_degree = row[17];
  if (row[18] !== null) record.independent_sources = row[18];
  if (row[19] !== null) record.published_at = row[19];
  if (row[20] !== null) record.safety = row[20];
  if (row[21] !== null) record.tld = row[21];
  if (row[22] !== null) record.topics = row[22];
  if (row[23] !== null) record.word_count = row[23];
  if (row[28] !== null) record.origin_type = row[28];
  if (row[29] !== null) record.source_role = row[29];
  if (row[30] !== null) record.role_confidence = row[30];
  return record;
}
