/**
 * Embedding throughput per embedder: one passage (title and text, as the background embedder
 * reads it) and one query, on one thread. The hashing embedder runs in the engine; the model on
 * ONNX Runtime with one intra-op thread, the way the service embeds query texts.
 */
import { OnnxEmbedder } from '@evidence/embedders';
import { embed } from '@evidence/native';
import type { MicroGroup } from './group.js';

/** About 60 words: a demo-corpus passage is 40 to 120. */
const PASSAGE =
  'Patching a punctured inner tube\nLever the tire off the rim and pull the tube out. Pump a little air in and listen for the hiss, or pass the tube through a bowl of water and watch for bubbles. Scuff the rubber around the hole with sandpaper, spread a thin layer of glue, wait until it turns tacky, then press the patch on firmly and hold it for a minute before refitting the tube.';
const QUERY = 'fix a flat bicycle tyre';

export const embedGroup: MicroGroup = {
  name: 'embed',
  title: 'Embedding throughput per embedder (one thread)',
  legend:
    'baseline: the hashing embedder (engine, 128 dimensions). Row: bge-small-en-v1.5-q int8 on ONNX Runtime, one intra-op thread (384 dimensions). ' +
    'ops/s of the passage rows is passages embedded per second per core; the background embedder runs EMBED_THREADS of them.',
  async setup() {
    let model: OnnxEmbedder;
    try {
      model = await OnnxEmbedder.open({ threads: 1 });
    } catch (error) {
      return { unavailable: `the model cannot be loaded (${(error as Error).message}): run npm run models` };
    }
    return {
      cases: [
        {
          label: 'passage (~70 words)',
          baseline: { name: 'hashing', fn: () => embed(PASSAGE, 128) },
          tasks: [{ name: 'bge-small-en-v1.5-q', fn: () => model.embed([PASSAGE], 'passage') }],
        },
        {
          label: 'query (5 words)',
          baseline: { name: 'hashing', fn: () => embed(QUERY, 128) },
          tasks: [{ name: 'bge-small-en-v1.5-q', fn: () => model.embed([QUERY], 'query') }],
        },
      ],
      close: () => model.close(),
    };
  },
};
