/** Ingest progress off a terminal: JSON lines (the server's log format), one per report and every few seconds. */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgressReporter } from '../src/progress.js';

afterEach(() => vi.useRealTimers());

describe('ingest progress when stderr is not a terminal', () => {
  it('writes one JSON line per reported line and per progress interval', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_800_000_000_000);
    const written: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
        done();
      },
    }) as unknown as NodeJS.WriteStream;
    const reporter = createProgressReporter(stream);
    reporter.log('pages.jsonl:2: text is missing');
    const progress = { file: 'pages.jsonl', bytesRead: 1_048_576, bytesTotal: 2_097_152, lines: 10, passages: 40, malformed: 1, elapsedSeconds: 2, passagesPerSecond: 20 };
    reporter.onProgress(progress); // too soon after the start: no line
    vi.setSystemTime(1_800_000_006_000);
    reporter.onProgress(progress);
    reporter.stop();
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'pages.jsonl:2: text is missing' });
    expect(lines[1]).toMatchObject({ level: 'info', file: 'pages.jsonl', bytes_read: 1_048_576, bytes_total: 2_097_152, passages: 40, passages_per_second: 20, malformed: 1 });
    expect(lines[1].msg).toMatch(/^ingest: 1\.0\/2\.0 MB \(50%\)/);
    expect(typeof lines[1].time).toBe('string');
  });
});
