/**
 * The ingest run, in two passes over the input. Pass 1 reads only the links, to update the host
 * graph and its signals (link-graph.ts). Pass 2 streams the JSONL, validates each line, splits
 * and derives passages (owner, role, graph signals, story, origin), leaves out redundant copies,
 * routes passages to shards in batches, applies re-crawls and removals, rewrites the indexed
 * passages of stories that gained hosts, and keeps the admission ledger and the provenance logs
 * in step with the index (all are committed together every COMMIT_EVERY_PASSAGES and at the end).
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { embedderForIndex } from '@evidence/embedders';
import { assertShardSet, ensureManifest, ledgerPath, readManifest, shardOptionsOf, type ShardOptions } from '@evidence/native';
import { AdmissionTable } from './admission.js';
import { IngestRun } from './ingest-run.js';
import { LedgerWriter, replayLedger } from './ledger.js';
import { readInputBatches, type InputBatch } from './input-reader.js';
import { ProvenanceState } from './provenance-state.js';
import { ShardWriters } from './shard-writers.js';
import type { IngestProgress, IngestSummary } from './summary.js';

export const DEFAULT_SHARDS = 2;
/** Bounds writer memory and lets running servers see progress on long runs. */
export const COMMIT_EVERY_PASSAGES = 200_000;

export interface IngestOptions {
  dataDir: string;
  /** Shard count for a new index (default 2); an existing index keeps its own. */
  shards?: number;
  onProgress?: (progress: IngestProgress) => void;
  /** Where warnings and malformed-line reports go (default: stderr). */
  log?: (line: string) => void;
  /** Passages between commits (default COMMIT_EVERY_PASSAGES); small values are for tests. */
  commitEvery?: number;
  /**
   * The embedder of a new index (default: hashing, the engine's own); an existing index keeps
   * its own, and naming another is an error. A model's vectors are made after ingest, by the
   * service's background embedder: ingest never waits for them.
   */
  embedder?: { name: string; dimensions: number };
  /**
   * How long opening a shard waits while another writer holds it (default LOCK_WAIT_MS): the
   * service's background embedder holds each shard briefly to store a batch of vectors. A
   * writer that holds it longer (another ingest run) fails this run, naming the shard.
   */
  lockWaitMs?: number;
}

/** Vectors left to merge at the end of a run above which the run says it is building the graph. */
const ANNOUNCED_GRAPH_BUILD = 20_000;

/**
 * Default of IngestOptions.lockWaitMs: a vector batch's store and commit take well under it, and
 * so does a shard's last batch, which also merges the shard's short vector tail into its graph.
 */
export const LOCK_WAIT_MS = 30_000;

/** The shard count to use: an existing index keeps its own, with a warning when asked otherwise. */
function resolveShardCount(options: IngestOptions, log: (line: string) => void): { shards: number; dimensions: number; shardOptions: ShardOptions } {
  const requested = options.shards ?? DEFAULT_SHARDS;
  if (!Number.isInteger(requested) || requested < 1) throw new Error(`shard count must be a positive integer, got ${requested}`);
  const existing = readManifest(options.dataDir);
  if (existing !== null && options.shards !== undefined && options.shards !== existing.shards) {
    log(`warning: SHARDS=${options.shards} asked for, but the index in ${options.dataDir} has ${existing.shards} shards; using ${existing.shards}`);
  }
  // An existing index must have been built with the embedder asked for (the error says why).
  if (existing !== null && options.embedder !== undefined) embedderForIndex(options.embedder.name, existing);
  const manifest = ensureManifest(options.dataDir, requested, options.embedder);
  // Ingest writes into the shards the index was created with, and never recreates a lost one.
  assertShardSet(options.dataDir, manifest);
  return { shards: manifest.shards, dimensions: manifest.dimensions, shardOptions: shardOptionsOf(manifest) };
}

/** Sizes of the files that can be read; the others are reported and left out. */
function measureFiles(files: string[], run: { fileUnreadable(file: string, error: unknown): void }): Array<{ file: string; bytes: number }> {
  const readable: Array<{ file: string; bytes: number }> = [];
  for (const file of files) {
    try {
      const stats = statSync(file);
      if (!stats.isFile()) throw new Error('not a regular file');
      readable.push({ file, bytes: stats.size });
    } catch (error) {
      run.fileUnreadable(file, error);
    }
  }
  return readable;
}

/** Ingest files (JSONL, plain or gzip/zstd; WARC and WET, plain or compressed) into the index under `options.dataDir`, writing the admission ledger. */
export async function ingestFiles(files: string[], options: IngestOptions): Promise<IngestSummary> {
  const startedAt = performance.now();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const commitEvery = options.commitEvery ?? COMMIT_EVERY_PASSAGES;
  if (!Number.isInteger(commitEvery) || commitEvery < 1) throw new Error(`commitEvery must be a positive integer, got ${commitEvery}`);
  const { shards, dimensions, shardOptions } = resolveShardCount(options, log);
  // The writers hold the shard locks: only then is the ledger ours to read and extend.
  const writers = await ShardWriters.open(options.dataDir, shards, shardOptions, options.lockWaitMs ?? LOCK_WAIT_MS);
  const table = new AdmissionTable();
  let ledger: LedgerWriter;
  let provenance: ProvenanceState;
  const unreadable: Array<{ file: string; error: unknown }> = [];
  const readable = measureFiles(files, { fileUnreadable: (file, error) => unreadable.push({ file, error }) });
  try {
    // Pass 1 (links) runs here, before the first passage is derived.
    provenance = await ProvenanceState.open(options.dataDir, readable.map((entry) => entry.file));
    try {
      await replayLedger(ledgerPath(options.dataDir), (event) => {
        table.apply(event);
        if (event.event === 'removed' && event.page_id !== null) provenance.copies.retire(event.page_id);
      });
      ledger = LedgerWriter.open(ledgerPath(options.dataDir));
    } catch (error) {
      provenance.close();
      throw error;
    }
  } catch (error) {
    await writers.close();
    throw error;
  }
  const run = new IngestRun(writers, ledger, table, provenance, dimensions, log, commitEvery, startedAt);
  for (const { file, error } of unreadable) run.fileUnreadable(file, error);
  try {
    const bytesTotal = readable.reduce((sum, entry) => sum + entry.bytes, 0);
    let bytesBeforeFile = 0;
    for (const { file, bytes } of readable) {
      const batches = readInputBatches(file);
      let readToEnd = true;
      try {
        for (;;) {
          let next: IteratorResult<InputBatch>;
          try {
            next = await batches.next();
          } catch (error) {
            run.fileUnreadable(file, error);
            readToEnd = false;
            break;
          }
          if (next.done) break;
          const batch = next.value;
          if (batch.kind === 'lines') {
            for (let offset = 0; offset < batch.lines.length; ) {
              offset = run.ingestLines(file, batch, offset);
              if (run.commitDue) await run.commit();
            }
          } else if (batch.kind === 'crawl') {
            for (let offset = 0; offset < batch.items.length; ) {
              offset = run.ingestCrawlItems(file, batch.items, offset);
              if (run.commitDue) await run.commit();
            }
          } else {
            run.reportDamage(file, batch.offset, batch.reason);
          }
          await writers.waitForCapacity();
          options.onProgress?.(run.progress(file, bytesBeforeFile + next.value.bytesRead, bytesTotal));
        }
      } finally {
        // Closes the file when the run fails part way through it.
        await batches.return(undefined);
      }
      if (readToEnd) run.fileDone();
      bytesBeforeFile += bytes;
    }
    await run.commit(true);
    const summary = run.summary();
    // Vectors made here wait in each shard's tail (searched exactly) until merged into its HNSW
    // graph, behind the run and now at its end; the run then reports when it was fully indexed.
    if (shardOptions.vectors !== 'external') {
      const waiting = await writers.vectorTail();
      if (waiting >= ANNOUNCED_GRAPH_BUILD) {
        log(`putting ${waiting} vectors into the vector graph (about ${Math.ceil((waiting * 0.2) / 1000 / Math.min(shards, availableParallelism()))} s; meanwhile searches scan them exactly)`);
      }
      const built = await writers.buildVectors();
      summary.vectorsMergedAtEnd = built.records;
      summary.fullyIndexedSeconds = (performance.now() - startedAt) / 1000;
    }
    return summary;
  } finally {
    await writers.close();
    ledger.close();
    provenance.close();
  }
}
