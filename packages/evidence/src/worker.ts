/**
 * An evidence worker: piscina loads this module and awaits its default export, the handler.
 * Nothing to open, so the handler is ready at once.
 */
import { changesResponse } from './changes.js';
import { contextPack } from './context.js';
import { corroborationResponse } from './corroboration.js';
import { groundResponse } from './ground.js';
import type { EvidenceTask } from './types.js';

function handleEvidenceTask(task: EvidenceTask): unknown {
  switch (task.op) {
    case 'ground':
      return groundResponse(task.task);
    case 'changes':
      return changesResponse(task.task);
    case 'context':
      return contextPack(task.task);
    case 'corroborate':
      return corroborationResponse(task.task);
  }
}

export default Promise.resolve(handleEvidenceTask);
