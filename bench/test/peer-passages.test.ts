/**
 * The Fastify peer's corpus: the passages of a JSONL that the index built from it still holds
 * (a removed URL, a superseded crawl and a repeated page are left out or counted once).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFiles } from '@evidence/ingest';
import { ShardReader, readManifest, shardDirectory } from '@evidence/native';
import { loadIndexedPassages, type PeerCorpus } from '../src/peers/passages.js';

const sentence = (topic: string, index: number) => `Paragraph ${index} explains the ${topic} with enough words to be its own passage here.`;
const page = (url: string, topic: string, paragraphs: number, fetchedAt: number) => ({
  url,
  title: `About the ${topic}`,
  text: Array.from({ length: paragraphs }, (_, index) => sentence(topic, index)).join('\n\n'),
  fetched_at: fetchedAt,
});

let directory: string;
let corpus: PeerCorpus;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'bench-peer-passages-'));
  const jsonl = join(directory, 'corpus.jsonl');
  const kept = page('https://kept.example/a', 'tide tables', 2, 1_700_000_000);
  const lines = [
    kept,
    page('https://removed.example/b', 'glacier retreat', 2, 1_700_000_000),
    page('https://recrawled.example/c', 'old ferry timetable', 3, 1_700_000_000),
    page('https://recrawled.example/c', 'new ferry timetable', 1, 1_700_100_000),
    kept,
    { url: 'https://removed.example/b', removed: 'stale', removed_at: 1_700_200_000 },
  ];
  writeFileSync(jsonl, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  const dataDir = join(directory, 'data');
  await ingestFiles([jsonl], { dataDir, shards: 2, log: () => {} });
  corpus = await loadIndexedPassages(jsonl, dataDir);
  const manifest = readManifest(dataDir)!;
  let indexed = 0;
  for (let shard = 0; shard < manifest.shards; shard++) {
    const reader = ShardReader.open(shardDirectory(dataDir, shard), { dimensions: manifest.dimensions });
    indexed += reader.numDocs();
    reader.close();
  }
  expect(indexed).toBe(corpus.passages.length);
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('the peer corpus', () => {
  it('holds what the index holds: the kept page once and the re-crawl, not the removed or superseded pages', () => {
    expect(corpus.split).toBe(2 + 2 + 3 + 1 + 2);
    expect(corpus.passages.map((passage) => passage.url).sort()).toEqual(['https://kept.example/a', 'https://kept.example/a', 'https://recrawled.example/c']);
    expect(corpus.passages.find((passage) => passage.url.endsWith('/c'))!.title).toBe('About the new ferry timetable');
  });

  it('identifies passages as the index does (page:no) and keeps title, text and safety', () => {
    const first = corpus.passages[0];
    expect(first.id).toMatch(/^p[0-9a-f]{16}:0$/);
    expect(first.text).toBe(sentence('tide tables', 0));
    expect(first.safety).toBe('safe');
  });
});
