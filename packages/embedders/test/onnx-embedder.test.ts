/**
 * The real model on the CPU: unit vectors of 384 dimensions, deterministic, a paraphrase with no
 * word in common nearer than an unrelated text, and a text's vector the same in a batch as alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BGE_SMALL_DIMENSIONS, OnnxEmbedder } from '@evidence/embedders';

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index] * b[index];
  return sum;
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  let largest = 0;
  for (let index = 0; index < a.length; index++) largest = Math.max(largest, Math.abs(a[index] - b[index]));
  return largest;
}

const TEXTS = [
  'how do I fix a flat bicycle tyre',
  'repairing a punctured bike tire',
  'The quarterly earnings report showed revenue growth in the cloud division.',
  'Fahrenheit Scale-Daniel Gabriel Fahrenheit. Daniel Gabriel Fahrenheit was the German physicist who invented a alcohol thermometer in 1709, and the mercury thermometer in 1714.',
  '',
];

describe('OnnxEmbedder (bge-small-en-v1.5-q)', () => {
  let embedder: OnnxEmbedder;

  beforeAll(async () => {
    embedder = await OnnxEmbedder.open({ threads: 1 });
  });

  afterAll(async () => {
    await embedder.close();
  });

  it('names itself and gives one unit vector of 384 dimensions per text', async () => {
    expect(embedder.name).toBe('bge-small-en-v1.5-q');
    expect(embedder.dimensions).toBe(BGE_SMALL_DIMENSIONS);
    expect(BGE_SMALL_DIMENSIONS).toBe(384);
    const vectors = await embedder.embed(TEXTS, 'passage');
    expect(vectors).toHaveLength(TEXTS.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(384);
      expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5);
    }
    expect(await embedder.embed([], 'query')).toEqual([]);
  });

  it('gives the same vector for the same text', async () => {
    const [first] = await embedder.embed([TEXTS[3]], 'passage');
    const [second] = await embedder.embed([TEXTS[3]], 'passage');
    expect(Array.from(second)).toEqual(Array.from(first));
  });

  it('puts a paraphrase with no word in common nearer than an unrelated text', async () => {
    const [query] = await embedder.embed([TEXTS[0]], 'query');
    const [paraphrase, unrelated] = await embedder.embed([TEXTS[1], TEXTS[2]], 'passage');
    expect(dot(query, paraphrase)).toBeGreaterThan(dot(query, unrelated) + 0.1);
  });

  it('gives a text the same vector in a batch as alone', async () => {
    const together = await embedder.embed(TEXTS, 'passage');
    for (const [index, text] of TEXTS.entries()) {
      const [alone] = await embedder.embed([text], 'passage');
      expect(largestDifference(together[index], alone)).toBeLessThan(1e-4);
    }
  });

  it('keeps batched inference, which quantises a batch as a whole, near the vectors alone', async () => {
    const batched = await OnnxEmbedder.open({ threads: 1, batchSize: 16 });
    try {
      const together = await batched.embed(TEXTS, 'passage');
      const alone = await embedder.embed(TEXTS, 'passage');
      for (const [index, vector] of together.entries()) expect(dot(vector, alone[index])).toBeGreaterThan(0.99);
    } finally {
      await batched.close();
    }
  });

  it('refuses to embed once closed', async () => {
    const closing = await OnnxEmbedder.open({ threads: 1 });
    await closing.close();
    await expect(closing.embed(['text'], 'passage')).rejects.toThrow('embedder closed');
  });

  it('names npm run models when the model files are missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'embedders-'));
    try {
      await expect(OnnxEmbedder.open({ modelDirectory: empty })).rejects.toThrow(/has no model\.onnx or tokenizer\.json/);
      await expect(OnnxEmbedder.open({ modelDirectory: empty })).rejects.toThrow(/npm run models/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
