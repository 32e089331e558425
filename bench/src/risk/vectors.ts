/**
 * Sentence vectors for the instruction_like model as measured by `npm run bench:risk`: the static
 * embedding model the service ships (potion-base-2M, Model2Vec, 64 dimensions; `npm run models`
 * puts it in models/potion-base-2M/), the mean of a sentence's token rows at unit length. The
 * committed model reads n-grams only (the vectors added nothing across families; README, Risk
 * flags); this is how the bench measures the alternative, with the same scoring code
 * (`InstructionModel.embed`).
 */
import { StaticEmbedder } from '@evidence/embedders';
import type { VectorOf } from './train.js';

export interface SentenceVectors {
  name: string;
  dimensions: number;
  vectorOf: VectorOf;
}

/** The static embedder's vectors, or null (said on stderr) when its files are missing. */
export function staticSentenceVectors(): SentenceVectors | null {
  try {
    const embedder = StaticEmbedder.openSync();
    return { name: embedder.name, dimensions: embedder.dimensions, vectorOf: (sentence) => embedder.vector(sentence) };
  } catch (error) {
    console.error(`bench:risk: no sentence vectors (${(error as Error).message}): the vector model is not measured`);
    return null;
  }
}
