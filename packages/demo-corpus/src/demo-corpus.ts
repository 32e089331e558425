#!/usr/bin/env node
/**
 * Deterministic demo corpus generator (the ingest input).
 *
 *   node packages/demo-corpus/dist/demo-corpus.js [--passages N] [--now UNIX] [--seed N] [--out FILE]
 *
 * Writes JSONL, one record per line: page records (split by ingest into one passage per
 * paragraph), passage records (`id` = page:no, one passage each) and removal events
 * ({url, removed, removed_at}). The output is byte-identical for the same (seed, passages, now).
 */
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DemoCorpusGenerator, generateDemoCorpus, type DemoCorpusOptions, type DemoCorpusStats } from './generator.js';
import { AGGREGATORS, DEMO_OWNERS, HOSTS, RELEASE_WIRES, WIRES, registrableDomain } from './hosts.js';

export { AGGREGATORS, DEMO_OWNERS, HOSTS as DEMO_HOSTS, RELEASE_WIRES, WIRES, registrableDomain, generateDemoCorpus, DemoCorpusGenerator };
export type { DemoCorpusOptions, DemoCorpusStats };
export type { DemoRecord, DemoPageRecord, DemoRemovalRecord, DemoRemovalReason, Vertical } from './types.js';
export { VERTICALS, DEMO_REMOVAL_REASONS, LANGS, isRemoval } from './types.js';

export const DEFAULT_PASSAGES = 20000;
export const DEFAULT_SEED = 1;

export interface CliArgs {
  passages: number;
  now: number;
  seed: number;
  out: string | null;
}

export class UsageError extends Error {}

const USAGE = 'usage: demo-corpus [--passages N] [--now UNIX] [--seed N] [--out FILE]';

function intFlag(flag: string, value: string | undefined, minimum: number): number {
  if (value === undefined || !/^\d+$/.test(value)) throw new UsageError(`${flag} needs a non-negative integer, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < minimum) throw new UsageError(`${flag} must be an integer >= ${minimum}, got ${value}`);
  return parsed;
}

export function parseArgs(argv: readonly string[], nowDefault = Math.floor(Date.now() / 1000)): CliArgs {
  const args: CliArgs = { passages: DEFAULT_PASSAGES, now: nowDefault, seed: DEFAULT_SEED, out: null };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const equals = argument.indexOf('=');
    const flag = argument.startsWith('--') && equals > 0 ? argument.slice(0, equals) : argument;
    const inline = argument.startsWith('--') && equals > 0 ? argument.slice(equals + 1) : undefined;
    const value = () => (inline !== undefined ? inline : argv[++i]);
    switch (flag) {
      case '--passages':
        args.passages = intFlag(flag, value(), 0);
        break;
      case '--now':
        args.now = intFlag(flag, value(), 315360000);
        break;
      case '--seed':
        args.seed = intFlag(flag, value(), 0);
        break;
      case '--out': {
        const file = value();
        if (!file) throw new UsageError('--out needs a file name');
        args.out = file;
        break;
      }
      case '-h':
      case '--help':
        throw new UsageError(USAGE);
      default:
        throw new UsageError(`unknown flag ${JSON.stringify(argument)}; ${USAGE}`);
    }
  }
  return args;
}

/** Write a buffer fully to a file descriptor, waiting out EAGAIN on non-blocking pipes. */
function writeAll(fileDescriptor: number, buffer: Buffer): void {
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += fs.writeSync(fileDescriptor, buffer, offset, buffer.length - offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/** Stream the corpus as JSONL to a file descriptor; returns the stats and bytes written. */
export function writeDemoCorpus(fileDescriptor: number, options: DemoCorpusOptions): DemoCorpusStats & { bytes: number } {
  const generator = new DemoCorpusGenerator(options);
  const CHUNK_BYTES = 4 * 1024 * 1024;
  let parts: string[] = [];
  let size = 0;
  let bytes = 0;
  const flush = () => {
    if (!parts.length) return;
    const buffer = Buffer.from(parts.join(''), 'utf8');
    writeAll(fileDescriptor, buffer);
    bytes += buffer.length;
    parts = [];
    size = 0;
  };
  for (const record of generator.records()) {
    const line = JSON.stringify(record) + '\n';
    parts.push(line);
    size += line.length;
    if (size >= CHUNK_BYTES) flush();
  }
  flush();
  return { ...generator.stats, bytes };
}

export function main(argv: readonly string[]): number {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`demo-corpus: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const started = process.hrtime.bigint();
  const fileDescriptor = args.out ? fs.openSync(args.out, 'w') : 1;
  try {
    let stats: DemoCorpusStats & { bytes: number };
    try {
      stats = writeDemoCorpus(fileDescriptor, { passages: args.passages, now: args.now, seed: args.seed });
    } catch (error) {
      // The reader went away (e.g. `| head`): stop quietly.
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
      throw error;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    process.stderr.write(
      `demo-corpus: ${stats.pages} pages, ${stats.passageRecords} passage records, ${stats.passages} passages, ` +
        `${stats.removals} removal events, ${stats.bytes} bytes in ${seconds.toFixed(1)}s (seed ${args.seed}, now ${args.now})\n`,
    );
  } finally {
    if (args.out) fs.closeSync(fileDescriptor);
  }
  return 0;
}

function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return import.meta.url === pathToFileURL(fs.realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isMain()) process.exitCode = main(process.argv.slice(2));
