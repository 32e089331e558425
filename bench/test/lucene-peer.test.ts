/**
 * The Lucene peer as the bench drives it: its table read back, a missing peer said plainly,
 * and the passages exported in the form the peer indexes (one record per passage, with its id).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestFiles } from '@evidence/ingest';
import { exportPassages, parseLuceneBench, prepareLucenePeer } from '../src/peers/lucene.js';

const directory = mkdtempSync(join(tmpdir(), 'bench-lucene-peer-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the Lucene peer', () => {
  it('reads every mode of the bench table', () => {
    const stdout = [
      'exact    781.2 QPS  p50 1.280 ms  p99 2.100 ms  (7812 queries in 10.0 s)',
      '',
      '| mode | what | threads | QPS | p50 ms | p90 ms | p99 ms | mean ms | max ms | queries |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      '| exact | one pass, exact totals | 1 | 781.2 | 1.280 | 1.900 | 2.100 | 1.270 | 9.000 | 7812 |',
      '| count | top-k + count | 1 | 1500.0 | 0.580 | 0.900 | 1.400 | 0.660 | 5.000 | 15000 |',
      '| topk | top-k | 1 | 2900.5 | 0.340 | 0.500 | 0.800 | 0.344 | 3.000 | 29005 |',
    ].join('\n');
    const figures = parseLuceneBench(stdout);
    expect(figures.map((row) => row.mode)).toEqual(['exact', 'count', 'topk']);
    expect(figures[1]).toEqual({ mode: 'count', threads: 1, qps: 1500, p50: 0.58, p90: 0.9, p99: 1.4, mean: 0.66, max: 5, queries: 15000 });
  });

  it('names the folder and the setting when the peer is not there', () => {
    const previous = process.env.LUCENE_PEER_DIR;
    process.env.LUCENE_PEER_DIR = join(directory, 'no-peer');
    try {
      const peer = prepareLucenePeer(() => {});
      expect(peer).toEqual({ unavailable: expect.stringContaining(`no Lucene peer at ${join(directory, 'no-peer')}`) });
      expect((peer as { unavailable: string }).unavailable).toContain('LUCENE_PEER_DIR');
    } finally {
      if (previous === undefined) delete process.env.LUCENE_PEER_DIR;
      else process.env.LUCENE_PEER_DIR = previous;
    }
  });

  it('exports the passages the index holds, one record each with its id', async () => {
    const jsonl = join(directory, 'corpus.jsonl');
    const paragraphs = (topic: string) => [0, 1].map((n) => `Paragraph ${n} explains the ${topic} with enough words to be its own passage here.`).join('\n\n');
    const lines = [
      { url: 'https://kept.example/a', title: 'Tide tables', text: paragraphs('tide tables'), fetched_at: 1_700_000_000 },
      { url: 'https://removed.example/b', title: 'Glaciers', text: paragraphs('glacier retreat'), fetched_at: 1_700_000_000 },
      { url: 'https://removed.example/b', removed: 'stale', removed_at: 1_700_200_000 },
    ];
    writeFileSync(jsonl, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const dataDir = join(directory, 'data');
    await ingestFiles([jsonl], { dataDir, shards: 1, log: () => {} });
    const out = join(directory, 'passages.jsonl');
    expect(await exportPassages(jsonl, dataDir, out)).toBe(2);
    const records = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((record) => record.url)).toEqual(['https://kept.example/a', 'https://kept.example/a']);
    expect(new Set(records.map((record) => record.id)).size).toBe(2);
    expect(records[0]).toEqual({ id: expect.any(String), url: 'https://kept.example/a', title: 'Tide tables', text: expect.stringContaining('Paragraph 0 explains the tide tables') });
  });
});
