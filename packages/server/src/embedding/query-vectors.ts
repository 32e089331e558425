/**
 * Query vectors from the index's model, cached: the same query text costs the model once. A
 * text being embedded is shared by the calls that ask for it meanwhile. The model runs on a
 * thread of its own (index-vectors.ts), never on the event loop.
 */
import { embeddingInput, type TextEmbedder } from '@evidence/embedders';
import { ServiceError } from '@evidence/schemas';

/** Query texts whose vectors are kept (about 1.6 KB each at 384 dimensions). */
export const QUERY_VECTOR_CACHE_ENTRIES = 10_000;

export interface QueryVectorStats {
  hits: number;
  misses: number;
  /** Wall time of the model calls, ms. */
  modelMs: number;
}

export class QueryVectors {
  private readonly cache = new Map<string, Promise<number[]>>();
  readonly stats: QueryVectorStats = { hits: 0, misses: 0, modelMs: 0 };

  constructor(
    private readonly embedder: TextEmbedder,
    private readonly capacity = QUERY_VECTOR_CACHE_ENTRIES,
  ) {}

  /**
   * A passage's vector made now, for a passage the background embedder has not reached yet
   * (from `title` and `text` as the background embedder reads them). Not cached.
   */
  async passageVectorOf(title: string, text: string): Promise<number[]> {
    try {
      const [embedded] = await this.embedder.embed([embeddingInput(title, text)], 'passage');
      return Array.from(embedded);
    } catch (error) {
      throw new ServiceError('embedder_unavailable', `the embedding model failed on this passage: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  vectorOf(text: string): Promise<number[]> {
    const cached = this.cache.get(text);
    if (cached) {
      this.stats.hits++;
      // least recently used first: a hit moves to the end
      this.cache.delete(text);
      this.cache.set(text, cached);
      return cached;
    }
    this.stats.misses++;
    const started = performance.now();
    const vector = this.embedder.embed([text], 'query').then(
      ([embedded]) => {
        this.stats.modelMs += performance.now() - started;
        return Array.from(embedded);
      },
      (error: unknown) => {
        this.cache.delete(text);
        throw new ServiceError('embedder_unavailable', `the embedding model failed on this query: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    this.cache.set(text, vector);
    if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    return vector;
  }
}
