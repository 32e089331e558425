/**
 * Progress of a CLI run on stderr: a live bar (bytes read of total, passages/s) on a terminal,
 * otherwise one JSON line (pino, the server's log format) every few seconds, and one for each
 * line the run reports (a malformed record, an unreadable file), so log collectors and CI keep
 * a record they can parse.
 */
import cliProgress from 'cli-progress';
import pino from 'pino';
import { ingestFiles, type IngestOptions } from './ingest.js';
import type { IngestProgress, IngestSummary } from './summary.js';

const PLAIN_LINE_INTERVAL_MS = 5000;

export interface ProgressReporter {
  onProgress(progress: IngestProgress): void;
  /** Print a line without tearing the bar. */
  log(line: string): void;
  stop(): void;
}

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

function describeProgress(progress: IngestProgress): string {
  const percent = progress.bytesTotal > 0 ? Math.floor((100 * progress.bytesRead) / progress.bytesTotal) : 100;
  return (
    `ingest: ${megabytes(progress.bytesRead)}/${megabytes(progress.bytesTotal)} MB (${percent}%), ` +
    `${progress.passages} passages, ${Math.round(progress.passagesPerSecond)} passages/s, ${progress.malformed} malformed`
  );
}

function jsonLineReporter(stream: NodeJS.WritableStream): ProgressReporter {
  const logger = pino(
    { base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
    stream,
  );
  let lastLineAt = Date.now();
  return {
    onProgress(progress) {
      const now = Date.now();
      if (now - lastLineAt < PLAIN_LINE_INTERVAL_MS) return;
      lastLineAt = now;
      logger.info(
        {
          file: progress.file,
          bytes_read: progress.bytesRead,
          bytes_total: progress.bytesTotal,
          passages: progress.passages,
          passages_per_second: Math.round(progress.passagesPerSecond),
          malformed: progress.malformed,
        },
        describeProgress(progress),
      );
    },
    log(line) {
      logger.info(line);
    },
    stop() {},
  };
}

function barReporter(stream: NodeJS.WriteStream): ProgressReporter {
  const bars = new cliProgress.MultiBar(
    {
      stream,
      format: 'ingest {bar} {percentage}% | {read}/{size} MB | {passages} passages | {rate} passages/s | {malformed} malformed',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  return {
    onProgress(progress) {
      const payload = {
        read: megabytes(progress.bytesRead),
        size: megabytes(progress.bytesTotal),
        passages: progress.passages,
        rate: Math.round(progress.passagesPerSecond),
        malformed: progress.malformed,
      };
      if (bar === undefined) {
        bar = bars.create(progress.bytesTotal, progress.bytesRead, payload);
        return;
      }
      bar.update(progress.bytesRead, payload);
    },
    log(line) {
      bars.log(`${line}\n`);
    },
    stop() {
      bars.stop();
    },
  };
}

/** A bar when `stream` is a terminal, periodic JSON lines when it is not. */
export function createProgressReporter(stream: NodeJS.WriteStream): ProgressReporter {
  return stream.isTTY ? barReporter(stream) : jsonLineReporter(stream);
}

/**
 * `ingestFiles` with its progress and log lines on `stream` (a bar on a terminal, else lines),
 * the reporter stopped however the run ends: what the ingest CLI and `npm start`'s demo build run.
 */
export async function ingestWithProgress(files: string[], options: Omit<IngestOptions, 'onProgress' | 'log'>, stream: NodeJS.WriteStream = process.stderr): Promise<IngestSummary> {
  const reporter = createProgressReporter(stream);
  try {
    return await ingestFiles(files, { ...options, onProgress: (progress) => reporter.onProgress(progress), log: (line) => reporter.log(line) });
  } finally {
    reporter.stop();
  }
}
