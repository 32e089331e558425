/**
 * A judged set's passages embedded by a model, as the background embedder embeds them (title and
 * text joined by a newline), kept in bench/out/vectors/ so a rerun costs the model nothing: the
 * file name carries the model and a hash of the texts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddingInput, type TextEmbedder } from '@evidence/embedders';
import type { CorpusDoc } from './dataset.js';

const TEXTS_PER_CALL = 64;

function inputOf(doc: Pick<CorpusDoc, 'title' | 'text'>): string {
  return embeddingInput(doc.title, doc.text);
}

export async function corpusVectors(setName: string, corpus: CorpusDoc[], model: TextEmbedder, cacheDir: string): Promise<Float32Array[]> {
  const hash = createHash('sha256');
  for (const doc of corpus) hash.update(`${doc.id}\u0000${inputOf(doc)}\u0000`);
  const file = join(cacheDir, `${setName}-${model.name}-${hash.digest('hex').slice(0, 16)}.f32`);
  const dimensions = model.dimensions;
  if (existsSync(file)) {
    const bytes = readFileSync(file);
    const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    if (all.length === corpus.length * dimensions) {
      return corpus.map((_, at) => all.slice(at * dimensions, (at + 1) * dimensions));
    }
  }
  const started = performance.now();
  const vectors: Float32Array[] = [];
  for (let start = 0; start < corpus.length; start += TEXTS_PER_CALL) {
    vectors.push(...(await model.embed(corpus.slice(start, start + TEXTS_PER_CALL).map(inputOf), 'passage')));
    if ((start / TEXTS_PER_CALL) % 10 === 0) {
      const seconds = (performance.now() - started) / 1000;
      process.stderr.write(`  ${setName}: ${vectors.length} of ${corpus.length} passages embedded by ${model.name} (${(vectors.length / Math.max(seconds, 0.001)).toFixed(0)}/s)\n`);
    }
  }
  const flat = new Float32Array(corpus.length * dimensions);
  vectors.forEach((vector, at) => flat.set(vector, at * dimensions));
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(`${file}.tmp`, Buffer.from(flat.buffer));
  renameSync(`${file}.tmp`, file);
  return vectors;
}
