/**
 * An evidence worker: piscina loads this module and awaits its default export, the handler.
 * Every call retrieves here, over the task's port to the shard pool (ground, changes,
 * assemble_context and corroborate alike), and builds its answer. The answer, or the error as
 * data, goes back as the task's result.
 */
import { join } from 'node:path';
import { workerData, type MessagePort } from 'node:worker_threads';
import { HIDDEN_TEXT_FILE } from '@evidence/native';
import { ranAndFailed, ServiceError, type KnownUrl } from '@evidence/schemas';
import { changesResponse } from './changes.js';
import { contextPack } from './context.js';
import { corroborationResponse } from './corroboration.js';
import { groundResponse } from './ground.js';
import { HiddenTextIndex } from './hidden-text-index.js';
import { retrieveContextCandidates, retrieveCorroboration, retrieveEvidence, retrieveKnownUrls, type RetrievalContext } from './retrieval.js';
import { carryError, PortSearcher, type CarriedError } from './shard-searcher.js';
import type { EvidenceTask, RetrievalSettings } from './types.js';

/** What the pool gives each evidence thread. */
export interface EvidenceWorkerData {
  /** DATA_DIR: the hidden-text record is followed from here. */
  dataDir: string;
}

/** One task as it reaches the thread: the call, and its port to the shard pool. */
export interface EvidenceMessage {
  task: EvidenceTask;
  port: MessagePort;
}

export type EvidenceOutcome = { body: unknown } | { error: CarriedError };

const hiddenText = new HiddenTextIndex(join((workerData as EvidenceWorkerData).dataDir, HIDDEN_TEXT_FILE));

/** Builds the answer; a failure here comes after the searches ran, so it is billed. */
function built<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw ranAndFailed(error);
  }
}

async function answer(task: EvidenceTask, searcher: PortSearcher): Promise<unknown> {
  const contextOf = (settings: RetrievalSettings): RetrievalContext => ({ searcher, hiddenText, ...settings });
  switch (task.op) {
    case 'ground': {
      const { retrieval: options, settings, ...facts } = task.call;
      const retrieval = await retrieveEvidence(contextOf(settings), options);
      return built(() => groundResponse({ ...facts, retrieval }));
    }
    case 'changes': {
      const { retrieval: options, settings, ...facts } = task.call;
      const context = contextOf(settings);
      const urls = facts.params.known_urls;
      // Looked up meanwhile (its search goes out with the retrievals' first round), and waited
      // for once both retrievals ran: a failure before that is the retrieval's.
      const known = urls === undefined ? null : retrieveKnownUrls(context, searcher, urls);
      known?.catch(() => undefined);
      const [after, before] = await Promise.all([retrieveEvidence(context, options), retrieveEvidence(context, { ...options, fetchedTo: facts.params.since })]);
      let knownUrls: KnownUrl[] | null = null;
      try {
        knownUrls = known ? await known : null;
      } catch (error) {
        throw ranAndFailed(error);
      }
      return built(() => changesResponse({ ...facts, after, before, knownUrls }));
    }
    case 'context': {
      const { params, settings } = task.call;
      const candidates = await retrieveContextCandidates(contextOf(settings), params.q, params.mode);
      return built(() => contextPack({ params, vectorsMatch: settings.vectorsMatch, candidates }));
    }
    case 'corroborate': {
      const { settings, ...call } = task.call;
      const corroboration = await retrieveCorroboration(contextOf(settings), call);
      return built(() => corroborationResponse(corroboration));
    }
  }
}

async function handleEvidenceTask({ task, port }: EvidenceMessage): Promise<EvidenceOutcome> {
  const searcher = new PortSearcher(port);
  try {
    return { body: await answer(task, searcher) };
  } catch (error) {
    // Whatever fails once the searches ran is marked so (`ranAndFailed`); any other error came
    // before them, so the call searched nothing.
    const carried = carryError(error);
    return { error: error instanceof ServiceError ? carried : { ...carried, ran: false } };
  } finally {
    searcher.close();
  }
}

export default Promise.resolve(handleEvidenceTask);
