/**
 * Grounding on a fixed candidate set: the evidence layer's groundResponse (pure; it runs on an
 * evidence worker, after the worker's own retrieval), by the number of passages retrieved, and
 * what carrying the answer back to the main thread and writing it cost.
 */
import { serialize } from 'node:v8';
import { groundResponse } from '@evidence/evidence';
import { groundTaskOf, storiesOf } from './fixtures/ground-task.js';
import type { MicroGroup } from './group.js';

const BASELINE_PASSAGES = 10;
const PASSAGE_COUNTS = [50, 100, 200];
const LARGEST = PASSAGE_COUNTS[PASSAGE_COUNTS.length - 1];

function passagesLabel(passages: number): string {
  return `${passages} passages, ${storiesOf(passages)} stories`;
}

export const groundGroup: MicroGroup = {
  name: 'ground',
  title: 'Grounding on a fixed candidate set (packages/evidence ground.ts)',
  legend:
    `baseline: groundResponse over ${passagesLabel(BASELINE_PASSAGES)} (the same call, a small retrieval). Rows: the same call over more passages ` +
    `(candidates: each story's first passage; expansion: every passage), then, for ${LARGEST} passages, structuredClone of the response ` +
    "(its way back from the evidence worker: piscina posts the worker's result, serialized there and deserialized on the main thread) " +
    'and JSON.stringify of the response (the HTTP answer, on the event loop). ' +
    'bytes: V8 serializer (what structured clone writes) and JSON UTF-8.',
  async setup() {
    const baselineTask = groundTaskOf(BASELINE_PASSAGES);
    const largestTask = groundTaskOf(LARGEST);
    const largestResponse = groundResponse(largestTask);
    return {
      cases: [
        {
          label: 'objective only',
          baseline: { name: `groundResponse, ${passagesLabel(BASELINE_PASSAGES)}`, fn: () => groundResponse(baselineTask) },
          tasks: [
            ...PASSAGE_COUNTS.map((passages) => {
              const task = groundTaskOf(passages);
              return { name: `groundResponse, ${passagesLabel(passages)}`, fn: () => groundResponse(task) };
            }),
            { name: `structuredClone(response), ${LARGEST} passages`, fn: () => structuredClone(largestResponse), bytes: serialize(largestResponse).length },
            { name: `JSON.stringify(response), ${LARGEST} passages`, fn: () => JSON.stringify(largestResponse), bytes: Buffer.byteLength(JSON.stringify(largestResponse)) },
          ],
        },
      ],
    };
  },
};
