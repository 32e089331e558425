import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { OnnxEmbedder, ThreadedEmbedder } from '@evidence/embedders';

describe('ThreadedEmbedder', () => {
  it('gives the vectors of the model it opens, off the calling thread, in order', async () => {
    const threaded = await ThreadedEmbedder.open('bge-small-en-v1.5-q', { threads: 1 });
    const direct = await OnnxEmbedder.open({ threads: 1 });
    try {
      expect(threaded.dimensions).toBe(384);
      const texts = ['fix a flat bicycle tyre', 'central bank raises rates', 'feeding a sourdough starter'];
      const [together, ...alone] = await Promise.all([threaded.embed(texts, 'query'), ...texts.map((text) => threaded.embed([text], 'query'))]);
      const reference = await direct.embed(texts, 'query');
      texts.forEach((_, at) => {
        expect(Array.from(together[at])).toEqual(Array.from(reference[at]));
        expect(Array.from(alone[at][0])).toEqual(Array.from(reference[at]));
      });
      // The event loop stays free while the thread works; the model called directly keeps it
      // busy (onnxruntime-node runs an inference on the calling thread). Measured: 0.004 and 1.000.
      const passages = Array.from({ length: 20 }, (_, at) => `a longer passage number ${at} about bicycles, tyres, tubes and patches`);
      const busyWhile = async (embedder: { embed: typeof threaded.embed }) => {
        const start = performance.eventLoopUtilization();
        await embedder.embed(passages, 'passage');
        return performance.eventLoopUtilization(start).utilization;
      };
      const onThread = await busyWhile(threaded);
      const onLoop = await busyWhile(direct);
      expect(onThread).toBeLessThan(onLoop / 2);
    } finally {
      await threaded.close();
      await direct.close();
    }
    await expect(threaded.embed(['x'], 'query')).rejects.toThrow(/closed/);
  });

  it('rejects at open with the reason when the name is no model', async () => {
    await expect(ThreadedEmbedder.open('hashing')).rejects.toThrow(/runs in the engine/);
  });
});
