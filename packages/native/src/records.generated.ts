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

/** What `ShardReader.search` encodes (MessagePack). */
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
