/**
 * Embedding throughput per embedder: one passage (title and text, as the background embedder
 * reads it) and one query, on one thread. The hashing embedder runs in the engine; each model of
 * the catalog through its own runtime (bge-small on ONNX Runtime with one intra-op thread, the
 * way the service embeds query texts; potion-base-2M's static table in JavaScript).
 */
import { EMBEDDERS, openEmbedder, type TextEmbedder } from '@evidence/embedders';
import { embed } from '@evidence/native';
import type { MicroGroup, MicroTask } from './group.js';

/** About 70 words: a demo-corpus passage is 40 to 120. */
const PASSAGE =
  'Patching a punctured inner tube\nLever the tire off the rim and pull the tube out. Pump a little air in and listen for the hiss, or pass the tube through a bowl of water and watch for bubbles. Scuff the rubber around the hole with sandpaper, spread a thin layer of glue, wait until it turns tacky, then press the patch on firmly and hold it for a minute before refitting the tube.';
const QUERY = 'fix a flat bicycle tyre';

export const embedGroup: MicroGroup = {
  name: 'embed',
  title: 'Embedding throughput per embedder (one thread)',
  legend:
    'baseline: the hashing embedder (engine, 128 dimensions). Rows: each model embedder of the catalog, one thread. ' +
    'ops/s of the passage rows is passages embedded per second per core; the background embedder runs EMBED_THREADS of them.',
  async setup() {
    const models: TextEmbedder[] = [];
    try {
      for (const spec of EMBEDDERS) if (spec.runs === 'model') models.push(await openEmbedder(spec.name, { threads: 1 }));
    } catch (error) {
      for (const model of models) await model.close();
      return { unavailable: `a model cannot be loaded (${(error as Error).message}): run npm run models` };
    }
    const tasks = (text: string, purpose: 'passage' | 'query'): MicroTask[] =>
      models.map((model) => ({ name: `${model.name} (${model.dimensions} dimensions)`, fn: () => model.embed([text], purpose) }));
    return {
      cases: [
        { label: 'passage (~70 words)', baseline: { name: 'hashing', fn: () => embed(PASSAGE, 128) }, tasks: tasks(PASSAGE, 'passage') },
        { label: 'query (5 words)', baseline: { name: 'hashing', fn: () => embed(QUERY, 128) }, tasks: tasks(QUERY, 'query') },
      ],
      async close() {
        for (const model of models) await model.close();
      },
    };
  },
};
