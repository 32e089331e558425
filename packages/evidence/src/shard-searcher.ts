/**
 * How the evidence layer reaches the shards. The server hands its shard pool to the evidence
 * pool as a `ShardSearcher`; each evidence task gets a MessagePort to it. Over the port a worker
 * asks for a round of searches (one scatter, one task per shard) and gets each shard's answer as
 * the engine's MessagePack bytes, moved, never decoded on the main thread: the worker gathers
 * them (`gatherSearch`). Errors cross as data, so a ServiceError keeps its kind and whether the
 * call ran.
 */
import type { MessagePort } from 'node:worker_threads';
import { answerBuffers, type ScatterRequest, type ShardAnswer } from '@evidence/pool';
import { ServiceError, type ErrorKind, type KnownUrl } from '@evidence/schemas';

/** One scatter of several searches; answers per search, then per shard in shard order. */
export interface ShardSearcher {
  scatter(requests: ScatterRequest[], timeoutMs: number): Promise<ShardAnswer[][]>;
}

/** An error as data (structured clone keeps only an Error's message). */
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
 * it throws comes after the searches, or from a worker that cannot say: billed as having run.
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
  return error;
}

type PortQuestion = { op: 'scatter'; requests: ScatterRequest[]; timeoutMs: number } | { op: 'knownUrls' };
type PortRequest = PortQuestion & { id: number };
type PortReply = { id: number; answers: ShardAnswer[][] } | { id: number; knownUrls: KnownUrl[] | null } | { id: number; error: CarriedError };

/** Main thread: answer a task's port from the pool (and, for changes, with the known URLs' presence). */
export function servePort(port: MessagePort, searcher: ShardSearcher, knownUrls?: () => Promise<KnownUrl[] | null>): void {
  port.on('message', (request: PortRequest) => {
    const answered =
      request.op === 'scatter'
        ? searcher.scatter(request.requests, request.timeoutMs).then((answers) => port.postMessage({ id: request.id, answers } satisfies PortReply, answerBuffers(answers)))
        : (knownUrls ? knownUrls() : Promise.resolve(null)).then((urls) => port.postMessage({ id: request.id, knownUrls: urls } satisfies PortReply));
    answered.catch((error: unknown) => port.postMessage({ id: request.id, error: carryError(error) } satisfies PortReply));
  });
}

/** Evidence worker: the shard pool over the task's port. */
export class PortSearcher implements ShardSearcher {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (reply: PortReply) => void }>();

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

  async scatter(requests: ScatterRequest[], timeoutMs: number): Promise<ShardAnswer[][]> {
    const reply = await this.ask({ op: 'scatter', requests, timeoutMs });
    return 'answers' in reply ? reply.answers : [];
  }

  /** The presence of the URLs a changes call named (null when it named none). */
  async knownUrls(): Promise<KnownUrl[] | null> {
    const reply = await this.ask({ op: 'knownUrls' });
    return 'knownUrls' in reply ? reply.knownUrls : null;
  }

  close(): void {
    this.port.close();
  }
}
