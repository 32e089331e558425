/**
 * The model embedder the catalog names, opened: the one place that maps an EmbedderSpec of
 * `runs: 'model'` to its implementation.
 */
import { embedderSpec } from './catalog.js';
import type { TextEmbedder } from './embedder.js';
import { BGE_SMALL_MODEL_NAME } from './model-files.js';
import { OnnxEmbedder, type OnnxEmbedderOptions } from './onnx-embedder.js';
import { POTION_BASE_2M_MODEL_NAME, StaticEmbedder, type StaticEmbedderOptions } from './static-embedder.js';

/**
 * Options for whichever model is opened; each takes the ones it knows. `modelDirectory` is the
 * named model's own directory (default the repository's models/<name>).
 */
export type OpenEmbedderOptions = OnnxEmbedderOptions & Omit<StaticEmbedderOptions, 'name'>;

/** Opens the model embedder `name` (a catalog name of `runs: 'model'`); throws naming the choices for any other. */
export async function openEmbedder(name: string, options: OpenEmbedderOptions = {}): Promise<TextEmbedder> {
  const spec = embedderSpec(name);
  let embedder: TextEmbedder;
  if (spec?.name === BGE_SMALL_MODEL_NAME) embedder = await OnnxEmbedder.open(options);
  else if (spec?.name === POTION_BASE_2M_MODEL_NAME) embedder = await StaticEmbedder.open(options);
  else {
    const choices = [BGE_SMALL_MODEL_NAME, POTION_BASE_2M_MODEL_NAME].join(', ');
    throw new Error(`no model embedder named "${name}": expected one of ${choices}${spec ? ` (${name} runs in the engine)` : ''}`);
  }
  if (embedder.dimensions !== spec.dimensions) {
    await embedder.close();
    throw new Error(`${name} gives vectors of ${embedder.dimensions} dimensions, the catalog says ${spec.dimensions}`);
  }
  return embedder;
}
