/** What turns text into vectors for semantic search; one implementation per model. */

/**
 * `passage` for text that is indexed, `query` for text searched with: some models (bge among
 * them) are trained to embed the two differently.
 */
export type EmbeddingPurpose = 'passage' | 'query';

export interface TextEmbedder {
  /** The model's name as recorded beside the vectors it made (a change of model is a re-embed). */
  readonly name: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in the order of `texts`. */
  embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]>;
  /** Frees the model; `embed` then rejects. */
  close(): Promise<void>;
}

/**
 * The text a passage's vector is made from: its title and text on two lines. The engine's
 * `embedding_input` (crates/engine/src/embedder.rs) joins them the same way, and
 * `ShardReader.passagesWithoutVectors` hands them over joined by it.
 */
export function embeddingInput(title: string, text: string): string {
  return `${title}\n${text}`;
}
