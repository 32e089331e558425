export { embeddingInput, type EmbeddingPurpose, type TextEmbedder } from './embedder.js';
export { BGE_SMALL_MODEL_NAME, DEFAULT_MODEL_DIRECTORY, modelFiles, type ModelFiles } from './model-files.js';
export {
  BGE_QUERY_INSTRUCTION,
  BGE_SMALL_DIMENSIONS,
  DEFAULT_BATCH_SIZE,
  OnnxEmbedder,
  QUERY_INSTRUCTION_BY_DEFAULT,
  type OnnxEmbedderOptions,
} from './onnx-embedder.js';
export { MAX_SEQUENCE_TOKENS, WordPieceTokenizer, padBatch, type BatchEncoding, type Encoding } from './wordpiece.js';
export { DEFAULT_EMBEDDER, EMBEDDERS, NO_EMBEDDER, embedderForIndex, embedderSetting, embedderSpec, type EmbedderSpec } from './catalog.js';
export {
  DEFAULT_STATIC_MODEL_DIRECTORY,
  POTION_BASE_2M_DIMENSIONS,
  POTION_BASE_2M_MODEL_NAME,
  STATIC_MAX_TOKENS,
  StaticEmbedder,
  readSafetensorsTable,
  staticModelFiles,
  type EmbeddingTable,
  type StaticEmbedderOptions,
  type StaticModelFiles,
} from './static-embedder.js';
export { openEmbedder, type OpenEmbedderOptions } from './open-embedder.js';
export { ThreadedEmbedder } from './threaded-embedder.js';
