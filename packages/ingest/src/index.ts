/** `@evidence/ingest`: JSONL pages and passages into the sharded index, with the admission ledger. */
export { ingestFiles, DEFAULT_SHARDS, COMMIT_EVERY_PASSAGES, type IngestOptions } from './ingest.js';
export { formatSummary, type IngestProgress, type IngestSummary } from './summary.js';
export { createProgressReporter, type ProgressReporter } from './progress.js';
export { splitIntoPassages, MIN_PASSAGE_WORDS, MAX_PASSAGE_WORDS } from './split.js';
export { countWords } from './words.js';
export { deriveHostFields, deriveOwner, type HostFields } from './derive.js';
export { detectLanguage, UNDETERMINED_LANGUAGE } from './language.js';
export { storyIdFor, normaliseStoryText } from './story.js';
export { pageIdFor, passageIdFor, parsePassageId, type PassageIdParts } from './page-id.js';
export { shardForPage } from './shard-router.js';
export { parseRecordLine, type ContentRecord, type RemovalRecord, type ParsedLine } from './record.js';
export { buildPassages, pageLanguage } from './passage-builder.js';
export { replayLedger, type LedgerEvent, type AdmittedEvent, type RemovedEvent } from './ledger.js';
export { CONTENT_TYPES, REMOVAL_REASONS, SOURCES, SAFETY_LEVELS, type ContentType, type RemovalReason, type Source, type Safety } from './vocabulary.js';
