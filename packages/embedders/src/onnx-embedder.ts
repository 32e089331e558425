/**
 * bge-small-en-v1.5 (int8 ONNX) on the CPU through onnxruntime-node: WordPiece ids in, the
 * [CLS] position of the last hidden state out, L2-normalised (the pooling bge was trained with).
 *
 * onnxruntime-node (1.30) runs an inference synchronously on the calling thread (deferred by a
 * setImmediate): the event loop waits for it, about 3 to 5 ms for a query and 120 ms for a
 * 400-token passage on one core. Embed passages in a worker thread.
 */
import { availableParallelism } from 'node:os';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { EmbeddingPurpose, TextEmbedder } from './embedder.js';
import { BGE_SMALL_MODEL_NAME, modelFiles } from './model-files.js';
import { MAX_SEQUENCE_TOKENS, WordPieceTokenizer, padBatch, type BatchEncoding } from './wordpiece.js';

export const BGE_SMALL_DIMENSIONS = 384;

/**
 * The instruction bge's authors prepend to short retrieval queries (never to passages). Whether
 * queries get it is `OnnxEmbedderOptions.queryInstruction`; see QUERY_INSTRUCTION_BY_DEFAULT.
 */
export const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

/**
 * On, chosen on the judged msmarco subset: nDCG@10 by exact cosine 0.820 with the instruction,
 * 0.812 without (+0.009, 95% interval -0.002..+0.020 over 43 queries). On dbpedia, kept aside to
 * check the choice, it went the other way within noise (0.502 with, 0.515 without). MEASURED.md.
 */
export const QUERY_INSTRUCTION_BY_DEFAULT = true;

/**
 * One text per inference by default. The model quantises its activations per tensor at run time
 * (DynamicQuantizeLinear), so in a batch a text's vector depends on the rest of the batch (cosine
 * about 0.998 to its vector alone); one at a time, a text always gets the same vector. On one
 * thread that is also the fastest; with two free cores batches of 16 were about a third faster
 * (MEASURED.md), with no change of retrieval quality beyond noise.
 */
export const DEFAULT_BATCH_SIZE = 1;

export interface OnnxEmbedderOptions {
  /** Directory holding model.onnx and tokenizer.json; default the repository's models/bge-small-en-v1.5-q. */
  modelDirectory?: string;
  /** ONNX Runtime intra-op threads (one inference spread over them); default all cores, at most 4. */
  threads?: number;
  /** Texts per inference (DEFAULT_BATCH_SIZE); texts are sorted by length first, so a batch pads little. */
  batchSize?: number;
  /**
   * Let ONNX Runtime's threads spin while they wait for work, as it does unless told otherwise.
   * Default off: spinning threads take the cores that other threads of a busy machine need.
   */
  spinWait?: boolean;
  /** Prefix queries with BGE_QUERY_INSTRUCTION; default QUERY_INSTRUCTION_BY_DEFAULT. */
  queryInstruction?: boolean;
}

const INPUT_IDS = 'input_ids';
const ATTENTION_MASK = 'attention_mask';
const TOKEN_TYPE_IDS = 'token_type_ids';
const LAST_HIDDEN_STATE = 'last_hidden_state';

function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** The [CLS] row of each text in a [batch, sequence, dimensions] output, scaled to unit length. */
function pooledRows(hidden: Float32Array, batch: BatchEncoding, dimensions: number): Float32Array[] {
  const rows: Float32Array[] = [];
  for (let row = 0; row < batch.batchSize; row++) {
    const start = row * batch.sequenceLength * dimensions;
    const vector = hidden.slice(start, start + dimensions);
    let squares = 0;
    for (const value of vector) squares += value * value;
    const norm = Math.sqrt(squares);
    if (norm > 0) for (let index = 0; index < dimensions; index++) vector[index] /= norm;
    rows.push(vector);
  }
  return rows;
}

export class OnnxEmbedder implements TextEmbedder {
  readonly name = BGE_SMALL_MODEL_NAME;
  readonly dimensions = BGE_SMALL_DIMENSIONS;
  readonly batchSize: number;
  readonly queryInstruction: boolean;
  private session: InferenceSession | undefined;
  private readonly tokenizer: WordPieceTokenizer;
  private readonly takesTokenTypes: boolean;
  /** Inferences under way: close() waits for them before it frees the session. */
  private readonly running = new Set<Promise<unknown>>();

  /** Loads the model and its tokenizer; throws naming `npm run models` when the files are missing. */
  static async open(options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
    const files = modelFiles(options.modelDirectory);
    const tokenizer = WordPieceTokenizer.fromFile(files.tokenizer);
    const session = await InferenceSession.create(files.model, {
      intraOpNumThreads: options.threads ?? defaultThreads(),
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      extra: { session: { intra_op: { allow_spinning: options.spinWait ? '1' : '0' } } },
    });
    const missing = [INPUT_IDS, ATTENTION_MASK].filter((name) => !session.inputNames.includes(name));
    if (missing.length > 0 || !session.outputNames.includes(LAST_HIDDEN_STATE)) {
      await session.release();
      throw new Error(`${files.model} is not a BERT-style encoder: inputs ${session.inputNames.join(', ')}, outputs ${session.outputNames.join(', ')}`);
    }
    return new OnnxEmbedder(session, tokenizer, options);
  }

  private constructor(session: InferenceSession, tokenizer: WordPieceTokenizer, options: OnnxEmbedderOptions) {
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
    this.session = session;
    this.tokenizer = tokenizer;
    this.takesTokenTypes = session.inputNames.includes(TOKEN_TYPE_IDS);
    this.batchSize = batchSize;
    this.queryInstruction = options.queryInstruction ?? QUERY_INSTRUCTION_BY_DEFAULT;
  }

  async embed(texts: readonly string[], purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    if (!this.session) throw new Error('embedder closed');
    const prefix = purpose === 'query' && this.queryInstruction ? BGE_QUERY_INSTRUCTION : '';
    const encodings = texts.map((text) => this.tokenizer.encode(prefix + text, MAX_SEQUENCE_TOKENS));
    // Longest first: texts of like length share a batch, so little of it is padding.
    const order = encodings.map((_, index) => index).sort((a, b) => encodings[b].ids.length - encodings[a].ids.length);
    const vectors: Float32Array[] = new Array(texts.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const indices = order.slice(start, start + this.batchSize);
      const rows = await this.run(padBatch(indices.map((index) => encodings[index])));
      indices.forEach((index, row) => (vectors[index] = rows[row]));
    }
    return vectors;
  }

  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await Promise.allSettled([...this.running]);
    await session?.release();
  }

  private async run(batch: BatchEncoding): Promise<Float32Array[]> {
    const session = this.session;
    if (!session) throw new Error('embedder closed');
    const shape = [batch.batchSize, batch.sequenceLength];
    const feeds: Record<string, Tensor> = {
      [INPUT_IDS]: new Tensor('int64', batch.inputIds, shape),
      [ATTENTION_MASK]: new Tensor('int64', batch.attentionMask, shape),
    };
    if (this.takesTokenTypes) feeds[TOKEN_TYPE_IDS] = new Tensor('int64', batch.tokenTypeIds, shape);
    const inference = session.run(feeds, [LAST_HIDDEN_STATE]);
    this.running.add(inference);
    let output: Tensor;
    try {
      output = (await inference)[LAST_HIDDEN_STATE];
    } finally {
      this.running.delete(inference);
    }
    try {
      const [batchSize, sequenceLength, dimensions] = output.dims;
      if (batchSize !== batch.batchSize || sequenceLength !== batch.sequenceLength || dimensions !== this.dimensions) {
        throw new Error(`model output ${output.dims.join('x')}, expected ${batch.batchSize}x${batch.sequenceLength}x${this.dimensions}`);
      }
      return pooledRows(output.data as Float32Array, batch, this.dimensions);
    } finally {
      output.dispose();
    }
  }
}
