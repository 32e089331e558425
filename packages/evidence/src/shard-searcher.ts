/**
 * How the evidence layer reaches the shards. The server hands its shard pool to the evidence
 * pool as a `ShardSearcher`; each evidence task gets a MessagePort to it. Over the port a worker
 * asks for a round of searches (one scatter, one task per shard) and gets each shard's answer as
 * the engine's MessagePack bytes, moved, never decoded on the main thread: the worker gathers
 * them (`gatherSearch`). A passage looked up by id comes back the same way (bytes, decoded in
 * the worker), and for changes' known URLs the main thread's admission ledger answers over the
 * same port. Errors cross as data, so a ServiceError keeps its kind and whether the call ran.
 */
import type { MessagePort } from 'node:worker_threads';
import { answerBuffers, type ScatterRequest, type ShardAnswer } from '@evidence/pool';
import { ServiceError, type ErrorKind } from '@evidence/schemas';
import type { UrlLedgerState } from './urls.js';

/**
 * The shards as the evidence layer asks them: one scatter of several searches (answers per
 * search, then per shard in shard order), and one passage by id, as the engine's bytes.
 */
export interface ShardSearcher {
  scatter(requests: ScatterRequest[], timeoutMs: number): Promise<ShardAnswer[][]>;
  /** `partial`: a shard could not answer, so a miss is not proof of absence. */
  documentBytes(id: string, timeoutMs: number): Promise<{ bytes: Uint8Array | null; partial: boolean }>;
}

/** The admission ledger, as the main thread follows it (`LedgerIndex`). */
export interface LedgerLookup {
  lookup(url: string): Promise<UrlLedgerState | undefined>;
}

/**
 * An error as data (structured clone keeps only an Error's message). `ran` is a ServiceError's;
 * an evidence worker sets it false on any other error it raised before the call's searches ran.
 */
export interface CarriedError {
  message: string;
  kind?: ErrorKind;
  retryAfter?: number;
  ran?: boolean;
  stack?: string;
}

export function carryError(error: unknown): CarriedError {
  if (error instanceof ServiceError) return { message: error.message, kind: error.kind, retryAfter: error.retryAfter, ran: error.ran };
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

/** Errors an evidence worker reported from a retrieval's first round: the call searched nothing. */
const unrunCalls = new WeakSet<Error>();

/**
 * Whether the evidence layer failed before any search ran (released, not billed). Anything else
 * it throws comes after the searches, or from a worker that cannot say (its thread failed):
 * billed as having run.
 */
export function failedBeforeSearching(error: unknown): boolean {
  return error instanceof Error && unrunCalls.has(error);
}

export function reviveError(carried: CarriedError): Error {
  if (carried.kind) {
    const error = new ServiceError(carried.kind, carried.message, { retryAfter: carried.retryAfter, ran: carried.ran });
    if (!carried.ran) unrunCalls.add(error);
    return error;
  }
  const error = new Error(carried.message);
  if (carried.stack) error.stack = carried.stack;
  if (carried.ran === false) unrunCalls.add(error);
  return error;
}

type PortQuestion =
  | { op: 'scatter'; requests: ScatterRequest[]; timeoutMs: number }
  | { op: 'document'; passageId: string; timeoutMs: number }
  | { op: 'ledger'; urls: string[] };
type PortRequest = PortQuestion & { id: number };
type PortReply =
  | { id: number; answers: ShardAnswer[][] }
  | { id: number; document: { bytes: Uint8Array | null; partial: boolean } }
  | { id: number; states: (UrlLedgerState | undefined)[] }
  | { id: number; error: CarriedError };

/** Main thread: answer a task's port from the pool (and, for changes' known URLs, from the admission ledger). */
export function servePort(port: MessagePort, searcher: ShardSearcher, ledger?: LedgerLookup): void {
  port.on('message', (request: PortRequest) => {
    let answered: Promise<void>;
    switch (request.op) {
      case 'scatter':
        answered = searcher
          .scatter(request.requests, request.timeoutMs)
          .then((answers) => port.postMessage({ id: request.id, answers } satisfies PortReply, answerBuffers(answers)));
        break;
      case 'document':
        answered = searcher
          .documentBytes(request.passageId, request.timeoutMs)
          .then((document) => port.postMessage({ id: request.id, document } satisfies PortReply, document.bytes ? [document.bytes.buffer as ArrayBuffer] : []));
        break;
      case 'ledger': {
        const states = ledger ? Promise.all(request.urls.map((url) => ledger.lookup(url))) : Promise.reject(new Error('this evidence task was given no admission ledger'));
        answered = states.then((found) => port.postMessage({ id: request.id, states: found } satisfies PortReply));
        break;
      }
    }
    answered.catch((error: unknown) => port.postMessage({ id: request.id, error: carryError(error) } satisfies PortReply));
  });
}

/** Searches asked for in one turn of the worker's event loop with one deadline: they go out as one scatter. */
interface PendingScatter {
  requests: ScatterRequest[];
  askers: { from: number; count: number; resolve: (answers: ShardAnswer[][]) => void; reject: (error: unknown) => void }[];
}

/**
 * Evidence worker: the shard pool over the task's port. Scatters asked for in the same turn (the
 * two retrievals of changes and its known URLs, each round) go out together as one scatter, one
 * task per shard, and each asker gets its own searches' answers back.
 */
export class PortSearcher implements ShardSearcher {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (reply: PortReply) => void }>();
  /** By deadline (timeoutMs). */
  private readonly pending = new Map<number, PendingScatter>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (reply: PortReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      waiter?.resolve(reply);
    });
  }

  private async ask(request: PortQuestion): Promise<PortReply> {
    const id = this.nextId++;
    const reply = new Promise<PortReply>((resolve) => this.waiting.set(id, { resolve }));
    this.port.postMessage({ ...request, id });
    const answered = await reply;
    if ('error' in answered) throw reviveError(answered.error);
    return answered;
  }

  scatter(requests: ScatterRequest[], timeoutMs: number): Promise<ShardAnswer[][]> {
    return new Promise((resolve, reject) => {
      let batch = this.pending.get(timeoutMs);
      if (!batch) {
        if (this.pending.size === 0) setImmediate(() => this.sendPending());
        batch = { requests: [], askers: [] };
        this.pending.set(timeoutMs, batch);
      }
      batch.askers.push({ from: batch.requests.length, count: requests.length, resolve, reject });
      batch.requests.push(...requests);
    });
  }

  private sendPending(): void {
    const batches = [...this.pending];
    this.pending.clear();
    for (const [timeoutMs, batch] of batches) {
      this.ask({ op: 'scatter', requests: batch.requests, timeoutMs }).then(
        (reply) => {
          const answers = 'answers' in reply ? reply.answers : [];
          for (const asker of batch.askers) asker.resolve(answers.slice(asker.from, asker.from + asker.count));
        },
        (error: unknown) => {
          for (const asker of batch.askers) asker.reject(error);
        },
      );
    }
  }

  async documentBytes(id: string, timeoutMs: number): Promise<{ bytes: Uint8Array | null; partial: boolean }> {
    const reply = await this.ask({ op: 'document', passageId: id, timeoutMs });
    return 'document' in reply ? reply.document : { bytes: null, partial: true };
  }

  /** What the admission ledger says about each URL (undefined: nothing). */
  async ledgerStates(urls: string[]): Promise<(UrlLedgerState | undefined)[]> {
    const reply = await this.ask({ op: 'ledger', urls });
    return 'states' in reply ? reply.states : urls.map(() => undefined);
  }

  close(): void {
    this.port.close();
  }
}
