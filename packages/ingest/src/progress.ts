/**
 * Progress of a CLI run on stderr: a live bar (bytes read of total, passages/s) on a terminal,
 * a plain line every few seconds otherwise (logs and CI keep a readable record).
 */
import cliProgress from 'cli-progress';
import type { IngestProgress } from './summary.js';

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

function plainReporter(stream: NodeJS.WriteStream): ProgressReporter {
  let lastLineAt = Date.now();
  return {
    onProgress(progress) {
      const now = Date.now();
      if (now - lastLineAt < PLAIN_LINE_INTERVAL_MS) return;
      lastLineAt = now;
      stream.write(`${describeProgress(progress)}\n`);
    },
    log(line) {
      stream.write(`${line}\n`);
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

/** A bar when `stream` is a terminal, plain periodic lines when it is not. */
export function createProgressReporter(stream: NodeJS.WriteStream): ProgressReporter {
  return stream.isTTY ? barReporter(stream) : plainReporter(stream);
}
