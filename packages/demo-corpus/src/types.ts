/** Shared types of the demo corpus generator (the closed vocabularies are the engine's, from @evidence/schemas). */
import type { ContentTypeName, RemovalReason, SafetyLevel, SourceName, SourceRole } from '@evidence/schemas';

export const VERTICALS = [
  'news',
  'science',
  'code',
  'cooking',
  'health',
  'finance',
  'sports',
  'travel',
  'law',
  'education',
] as const;
export type Vertical = (typeof VERTICALS)[number];

export const LANGS = ['en', 'de', 'fr', 'es'] as const;
export type Lang = (typeof LANGS)[number];

/**
 * The removal reasons the demo corpus emits, a subset of the ledger's (`redundant` and
 * `superseded` are the ones ingest records itself, when it drops a duplicate or a page's new
 * version replaces it).
 */
export const DEMO_REMOVAL_REASONS = ['access-starved', 'lost-replacement', 'tombstoned-source', 'stale'] as const satisfies readonly RemovalReason[];
export type DemoRemovalReason = (typeof DEMO_REMOVAL_REASONS)[number];

export const AUTHORITIES = ['high', 'medium', 'low'] as const;
export type Authority = (typeof AUTHORITIES)[number];

/** Source role of a host (SPEC 2.6; a host always has one); the generator uses it to pick hosts, ingest derives its own. */
export type Role = Exclude<SourceRole, 'unknown'>;

export type HostKind =
  | 'gov'
  | 'edu'
  | 'court'
  | 'regulator'
  | 'docs'
  | 'academic'
  | 'code'
  | 'newsroom'
  | 'news'
  | 'wire'
  | 'releasewire'
  | 'reference'
  | 'magazine'
  | 'aggregator'
  | 'forum'
  | 'qa'
  | 'social'
  | 'video'
  | 'mirror'
  | 'spam'
  | 'adult';

/** A page record: split by ingest into passages on blank lines (or one passage when `id` is set). */
export interface DemoPageRecord {
  id?: string;
  url: string;
  title: string;
  text: string;
  fetched_at: number;
  published_at?: number;
  source?: SourceName;
  lang?: Lang;
  vertical?: Vertical;
  content_type?: ContentTypeName;
  authority?: Authority;
  safety?: SafetyLevel;
  host_rank?: number;
  quality?: number;
  topics?: string[];
  links?: string[];
  owner?: string;
}

/** A removal event for a URL emitted earlier in the stream. */
export interface DemoRemovalRecord {
  url: string;
  removed: DemoRemovalReason;
  removed_at: number;
}

export type DemoRecord = DemoPageRecord | DemoRemovalRecord;

export function isRemoval(record: DemoRecord): record is DemoRemovalRecord {
  return (record as DemoRemovalRecord).removed !== undefined;
}
