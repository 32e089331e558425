#!/usr/bin/env node
/**
 * `npm run ingest -- FILE...`: ingest JSONL (plain, gzip, zstd), WARC and WET files into the index in
 * DATA_DIR (default ./data); the format is told from each file's content.
 * SHARDS (default 2) and EMBEDDER (default bge-small-en-v1.5-q) set the shard count and embedder of a
 * new index only; a model's vectors are made by the running service after ingest. Exit 0 when every file was
 * read (malformed lines and damaged crawl records are reported and counted, not fatal), 1 when a file could not be
 * read or the run failed, 2 on a usage error.
 */
import { statfsSync } from 'node:fs';
import { embedderForIndex, embedderSetting, type EmbedderSpec } from '@evidence/embedders';
import { readManifest } from '@evidence/native';
import { formatSummary } from './summary.js';
import { ingestWithProgress } from './progress.js';

const USAGE = 'usage: npm run ingest -- FILE... (JSONL, .jsonl.gz, .jsonl.zst, .warc, .warc.gz, .warc.wet.gz; env: DATA_DIR, default ./data; SHARDS, default 2, and EMBEDDER, default bge-small-en-v1.5-q, for a new index)';

function shardsFromEnvironment(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`SHARDS must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Bytes free below which a failed run is most likely a full disk (the engine's message may not say so). */
const NEARLY_FULL_BYTES = 16 * 1024 * 1024;

/** A hint when the disk holding DATA_DIR is (nearly) full: the engine's error may not say so. */
function diskHint(dataDir: string): string {
  try {
    const stats = statfsSync(dataDir);
    const free = stats.bavail * stats.bsize;
    return free < NEARLY_FULL_BYTES ? ` (the disk holding ${dataDir} is full: ${free} bytes free)` : '';
  } catch {
    return '';
  }
}

async function main(argv: string[]): Promise<number> {
  const files = argv.filter((argument) => argument !== '--');
  if (files.length === 0 || files.some((file) => file === '-h' || file === '--help')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const dataDir = process.env.DATA_DIR || './data';
  let shards: number | undefined;
  let embedder: EmbedderSpec;
  try {
    shards = shardsFromEnvironment(process.env.SHARDS);
    // `none` reads as unset: ingest never runs a model
    embedder = embedderForIndex(embedderSetting(process.env.EMBEDDER), readManifest(dataDir));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  try {
    const summary = await ingestWithProgress(files, { dataDir, shards, embedder });
    process.stdout.write(`${formatSummary(summary)}\n`);
    return summary.unreadableFiles.length > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`ingest failed: ${error instanceof Error ? error.message : String(error)}${diskHint(dataDir)}\n`);
    process.stderr.write('nothing after the last commit was kept; the index serves what was committed before it\n');
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
