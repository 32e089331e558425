/** Shared types of the demo corpus generator. */

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

export const CONTENT_TYPES = [
  'article',
  'news',
  'docs',
  'reference',
  'qa',
  'forum',
  'academic',
  'product',
  'code',
  'how-to',
  'opinion',
  'video',
  'document',
] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const REMOVAL_REASONS = ['access-starved', 'lost-replacement', 'tombstoned-source', 'stale'] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

export const AUTHORITIES = ['high', 'medium', 'low'] as const;
export type Authority = (typeof AUTHORITIES)[number];

export type Safety = 'safe' | 'explicit';
export type Source = 'cc' | 'delta';

/** Source role of a host (SPEC 2.6); the generator uses it to pick hosts, ingest derives its own. */
export type Role = 'official' | 'primary' | 'secondary' | 'aggregator' | 'ugc';

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
  source?: Source;
  lang?: Lang;
  vertical?: Vertical;
  content_type?: ContentType;
  authority?: Authority;
  safety?: Safety;
  host_rank?: number;
  quality?: number;
  topics?: string[];
  links?: string[];
  owner?: string;
}

/** A removal event for a URL emitted earlier in the stream. */
export interface DemoRemovalRecord {
  url: string;
  removed: RemovalReason;
  removed_at: number;
}

export type DemoRecord = DemoPageRecord | DemoRemovalRecord;

export function isRemoval(record: DemoRecord): record is DemoRemovalRecord {
  return (record as DemoRemovalRecord).removed !== undefined;
}
