/**
 * The native facade: the only module that loads the addon. Everything above it imports the
 * engine from here, typed by the addon's generated declarations.
 */
import type * as Addon from '../addon.cjs';
import { addon } from './addon.js';

export const { ShardReader, ShardWriter, embed, engineVersion, panicInsideGuard } = addon;
export type ShardReader = Addon.ShardReader;
export type ShardWriter = Addon.ShardWriter;
export type {
  AddReport,
  CommitNotice,
  EmbeddingInput,
  Passage,
  ReloadReport,
  SearchFilters,
  SearchRequest,
  ShardOptions,
  VectorScoring,
} from '../addon.cjs';

/** File a writer rewrites after each commit; readers reload when it changes. */
export const COMMIT_FILE = 'commit.json';

/** A hit as the engine serialises it (SPEC 2.1 field names). */
export interface NativeHit {
  id: string;
  url: string;
  host: string;
  title: string;
  vertical: string;
  host_rank: number;
  quality: number;
  fetched_at: number;
  source: 'cc' | 'delta';
  story_id: string;
  score: number;
  snippet: string;
  authority?: string;
  centrality?: number;
  community_id?: string;
  content_type?: string;
  group_size?: number;
  in_degree?: number;
  independent_sources?: number;
  published_at?: number;
  safety?: string;
  tld?: string;
  topics?: string[];
  word_count?: number;
  /** Internal provenance for the evidence layer; never part of a SPEC hit. */
  lang: string;
  page_id: string;
  registrable_domain: string;
  owner: string;
  origin_type?: string;
  source_role?: string;
  role_confidence?: number;
  /** Set by the server, not the engine: the page hid text from readers (DATA_DIR/hidden-text.jsonl). */
  hidden_on_page?: boolean;
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
  hits: NativeHit[];
  total: number;
  timed_out: boolean;
  elapsed_us: number;
  facets?: ShardFacets;
  /** matches per vertical, when asked for */
  vertical_counts?: Record<string, number>;
  /** live passages of the shard */
  passages: number;
  /** how many of them have a vector (semantic and hybrid rankings reach only these) */
  embedded: number;
}

/** What `ShardReader.document` encodes (MessagePack): SPEC 2.3 fields plus provenance. */
export interface NativeDocument {
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
  source: string;
  story_id: string;
  links?: string[];
  origin_type?: string;
  source_role?: string;
  role_confidence?: number;
  content_type?: string;
  independent_sources?: number;
}

export * from './layout.js';
export * from './shard-set.js';
