/**
 * The native facade: the only module that loads the addon. Everything above it imports the
 * engine from here, typed by the addon's generated declarations (`addon.d.cts`) and by the
 * generated declarations of what its MessagePack answers hold (`records.generated.ts`), decoded
 * here and nowhere else.
 */
import { unpack } from 'msgpackr';
import type * as Addon from '../addon.cjs';
import { addon } from './addon.js';
import { hitFromRow, type Document, type Hit, type HitRow, type ShardSearchResult } from './records.generated.js';

export const { ShardReader, ShardWriter, embed, engineVersion, panicInsideGuard } = addon;
/** The engine's text analysis, for the evidence layer's lexical support. */
export const { analyseWords, textsHoldingTerms } = addon;
export type { AnalysedWord } from '../addon.cjs';
export type ShardReader = Addon.ShardReader;
export type ShardWriter = Addon.ShardWriter;
export type {
  AddReport,
  CollapseBy,
  CommitNotice,
  ContentTypeName,
  EmbeddingInput,
  OriginType,
  Passage,
  ReloadReport,
  SafetyLevel,
  SearchFilters,
  SearchMode,
  SearchRequest,
  SearchSort,
  ShardOptions,
  SourceName,
  SourceRole,
  VectorBuildReport,
  VectorScoring,
  VectorSourceName,
  VectorTail,
} from '../addon.cjs';
export type { HitRow, ShardFacets, ShardSearchResult } from './records.generated.js';
export { hitRowFields } from './records.generated.js';

/** File a writer rewrites after each commit; readers reload when it changes. */
export const COMMIT_FILE = 'commit.json';

/**
 * A hit as the engine encodes it (SPEC 2.1 field names and the internal provenance), plus the
 * one mark the evidence layer adds before it reads them.
 */
export type NativeHit = Hit & {
  /** Set by the evidence layer, not the engine: the page hid text from readers (DATA_DIR/hidden-text.jsonl). */
  hidden_on_page?: boolean;
};

/** What `ShardReader.document` encodes: SPEC 2.3 fields plus provenance. */
export type NativeDocument = Document;

/**
 * The answer of `ShardReader.search`, from its MessagePack bytes. Its hits come as rows
 * (`HitRow`: the fields in the table's order), each made a hit by the generated `hitFromRow`.
 */
export function decodeSearchResult(bytes: Uint8Array): ShardSearchResult {
  const answer = unpack(bytes) as Omit<ShardSearchResult, 'hits'> & { hits: HitRow[] };
  return { ...answer, hits: answer.hits.map(hitFromRow) };
}

/** The passage of `ShardReader.document`, from its MessagePack bytes. */
export function decodeDocument(bytes: Uint8Array): NativeDocument {
  return unpack(bytes) as NativeDocument;
}

export * from './layout.js';
export * from './shard-set.js';
