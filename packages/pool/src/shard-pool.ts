/**
 * The root of the scatter-gather: one piscina pool per shard (piscina balances only across its
 * own threads, so a pool per shard is how a task reaches its shard), REPLICAS threads each.
 * A shard that fails or misses the deadline leaves the answer partial, never an error or a hang.
 * Running work is never aborted (that would kill the thread and its open shard): queued tasks
 * past their deadline are skipped by the worker, running ones are bounded inside the engine.
 */
import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { COMMIT_FILE, decodeDocument, shardDirectory, type NativeDocument, type SearchRequest, type ShardFacets, type ShardOptions, type ShardSearchResult, type VectorScoring } from '@evidence/native';
import { errors } from '@evidence/schemas';
import { settleWithin, type Settled } from './deadline.js';
import { gatherSearch, type ScatterRequest, type ShardAnswer } from './gather.js';
import type { DocumentTask, ExpiredAnswer, SearchesAnswer, SearchesTask, ShardTask, VectorTask } from './tasks.js';

/** A task that looks one passage up on whichever shard holds it. */
type LookupBody = Omit<DocumentTask, 'generation' | 'deadlineAt'> | Omit<VectorTask, 'generation' | 'deadlineAt'>;

type TaskBody = Omit<SearchesTask, 'generation' | 'deadlineAt'> | LookupBody;

export interface ShardPoolOptions {
  dataDir: string;
  shards: number;
  /** Threads per shard. */
  replicas: number;
  /** How the shards open (their vector dimensions, and whether the engine embeds). */
  shardOptions: ShardOptions;
  /**
   * The query vector of a text, when a model outside the engine makes the index's vectors:
   * asked once per semantic or hybrid search (for every shard), never for keyword searches.
   */
  queryVector?: (text: string) => Promise<number[]>;
  /** How the embedder's cosines count (the engine's defaults are the hashing embedder's); a request may carry its own. */
  vectorScoring?: VectorScoring;
  /** Tasks that may wait per shard before the pool answers 503 at capacity. */
  maxQueue: number;
  /** How often commit notices are polled, ms. */
  reloadPollMs?: number;
}

/** One search across every shard: the engine's request, with the pool's deadline. */
export interface PoolSearchRequest extends ScatterRequest {
  timeoutMs: number;
}

export interface PoolSearchResult {
  hits: ShardSearchResult['hits'];
  total: number;
  partial: boolean;
  shardsDown: number;
  facets?: ShardFacets;
  /** Matches per vertical across shards, when asked for with `verticalCounts`. */
  verticalCounts?: Record<string, number>;
  /** Live passages of the shards that answered, and how many have a vector. */
  passages: number;
  embedded: number;
}

const workerFilename = fileURLToPath(new URL('./worker-entry.cjs', import.meta.url));

function isExpired(answer: unknown): answer is ExpiredAnswer {
  return typeof answer === 'object' && answer !== null && (answer as ExpiredAnswer).expired === true;
}

/** One search's answer from one shard's settled task (index: the search's place in the task). */
function shardAnswer(outcome: Settled<SearchesAnswer | ExpiredAnswer>, index: number): ShardAnswer {
  if (!outcome.ok) {
    if (outcome.reason === 'timeout') return { missed: 'timeout' };
    return { missed: isQueueFull(outcome.error) ? 'queue_full' : 'failed' };
  }
  if (isExpired(outcome.value)) return { missed: 'expired' };
  const bytes = outcome.value[index];
  return bytes ? { bytes } : { missed: 'expired' };
}

/**
 * The error of a call no shard answered: 408 when every shard ran out of time (a slow moment,
 * such as the first queries on a cold page cache: it clears by itself), 503 when a shard failed.
 */
function unanswered(settled: Settled<unknown>[]): Error {
  const late = settled.every((outcome) => (outcome.ok ? isExpired(outcome.value) : outcome.reason === 'timeout'));
  return late ? errors.timeout() : errors.noShard();
}

/**
 * A shard whose queue holds MAX_QUEUE waiting tasks. The pool checks this itself: piscina only
 * bounds tasks without an abort signal, and every task here carries one (a shard that cannot
 * open aborts its waiting tasks), which piscina keeps in an unbounded queue of its own.
 */
class QueueFullError extends Error {
  constructor(shard: number, maxQueue: number) {
    super(`shard ${shard}: task queue is at limit (${maxQueue} waiting)`);
    this.name = 'QueueFullError';
  }
}

function isQueueFull(error: unknown): boolean {
  return error instanceof QueueFullError || (error instanceof Error && /queue is at limit/i.test(error.message));
}

/** A shard whose workers could not open it is tried again after this long (or after a new commit). */
export const SHARD_RETRY_MS = 10_000;

/** Passages (live documents) a shard's last commit holds, from its commit.json; 0 before any commit. */
function committedPassages(commitFile: string): number {
  try {
    const commit = JSON.parse(readFileSync(commitFile, 'utf8')) as { num_docs?: unknown };
    return typeof commit.num_docs === 'number' ? commit.num_docs : 0;
  } catch {
    return 0;
  }
}

/** What a shard did since the pool started, for operators (GET /metrics). */
export interface ShardStats {
  shard: number;
  /** Worker threads alive. */
  threads: number;
  /** Tasks waiting for a thread. */
  queued: number;
  /** Tasks a thread is running now. */
  busy: number;
  completed: number;
  /** Commit generation the pool has seen (moves on every commit notice). */
  generation: number;
  /** Passages of the shard's last commit. */
  passages: number;
  /** Tasks that failed (the shard down, a worker error, its queue full). */
  failures: number;
  /** Tasks that missed their deadline (in the queue or on the thread). */
  timeouts: number;
}

/** Why a shard cannot serve now, and when to try it again. */
interface ShardDown {
  error: Error;
  retryAt: number;
  generation: number;
}

/** The opstamp in a shard's commit.json, or null when there is none (or it cannot be read). */
function opstampOf(commitFile: string): number | null {
  try {
    const opstamp = (JSON.parse(readFileSync(commitFile, 'utf8')) as { opstamp?: unknown }).opstamp;
    return typeof opstamp === 'number' ? opstamp : null;
  } catch {
    return null;
  }
}

/** What /readyz reports of a shard: the commit on disk against the one this process took in. */
export interface ShardCommitState {
  shard: number;
  committed_opstamp: number | null;
  serving_opstamp: number | null;
}

export class ShardPool {
  readonly shards: number;
  /** The commit each shard's watcher last saw (searches after it reload to it). */
  private readonly servingOpstamps: (number | null)[] = [];
  private readonly pools: Piscina[];
  private readonly generations: number[];
  private readonly commitFiles: string[];
  private readonly down: (ShardDown | null)[];
  /** Abort controllers of the tasks waiting on each shard. */
  private readonly waiting: Set<AbortController>[];
  private readonly passages: number[];
  private readonly failures: number[];
  private readonly timeouts: number[];

  constructor(private readonly options: ShardPoolOptions) {
    this.shards = options.shards;
    this.generations = new Array(options.shards).fill(0);
    this.down = new Array(options.shards).fill(null);
    this.waiting = Array.from({ length: options.shards }, () => new Set<AbortController>());
    this.passages = new Array(options.shards).fill(0);
    this.failures = new Array(options.shards).fill(0);
    this.timeouts = new Array(options.shards).fill(0);
    this.commitFiles = [];
    this.pools = [];
    for (let shard = 0; shard < options.shards; shard++) {
      const directory = shardDirectory(options.dataDir, shard);
      const pool = new Piscina({
        filename: workerFilename,
        minThreads: options.replicas,
        maxThreads: options.replicas,
        maxQueue: options.maxQueue,
        idleTimeout: Number.MAX_SAFE_INTEGER,
        workerData: { dataDir: options.dataDir, shard, shardOptions: options.shardOptions },
      });
      // A worker that cannot open its shard surfaces here (unhandled, it would end the process).
      pool.on('error', (error: Error) => this.markDown(shard, error));
      this.pools.push(pool);
      const commitFile = join(directory, COMMIT_FILE);
      this.commitFiles.push(commitFile);
      this.servingOpstamps.push(opstampOf(commitFile));
      this.passages[shard] = committedPassages(commitFile);
      // A commit rewrites commit.json; the next task tells its worker to reload.
      watchFile(commitFile, { interval: options.reloadPollMs ?? 500, persistent: false }, (current, previous) => {
        if (current.mtimeMs === previous.mtimeMs) return;
        this.generations[shard]++;
        this.servingOpstamps[shard] = opstampOf(commitFile);
        this.passages[shard] = committedPassages(commitFile);
      });
    }
  }

  /**
   * Per shard, the commit on disk now against the one this process has taken in: they differ
   * for up to the reload poll after a commit, or longer when a copied index stopped midway.
   */
  commitStates(): ShardCommitState[] {
    return this.commitFiles.map((file, shard) => ({
      shard,
      committed_opstamp: opstampOf(file),
      serving_opstamp: this.servingOpstamps[shard],
    }));
  }

  /** Whether any shard has an index on disk yet (readiness reports shards, not data). */
  hasCommittedShard(): boolean {
    return this.commitFiles.some((file) => existsSync(file));
  }

  /**
   * The shard's workers failed to open it. Tasks waiting for a worker that will not come are
   * aborted (only when no thread of the shard is alive, so nothing running is ever aborted), and
   * new ones fail at once until the retry time or the next commit.
   */
  private markDown(shard: number, error: Error): void {
    if (!this.down[shard]) console.error(`shard ${shard} cannot serve: ${error.message}`);
    this.down[shard] = { error, retryAt: Date.now() + SHARD_RETRY_MS, generation: this.generations[shard] };
    if (this.pools[shard].threads.length === 0) {
      for (const controller of this.waiting[shard]) controller.abort(error);
    }
  }

  private async run<T>(shard: number, task: ShardTask): Promise<T> {
    const down = this.down[shard];
    if (down && Date.now() < down.retryAt && this.generations[shard] === down.generation) throw down.error;
    if (this.pools[shard].queueSize >= this.options.maxQueue) throw new QueueFullError(shard, this.options.maxQueue);
    const controller = new AbortController();
    this.waiting[shard].add(controller);
    try {
      const answer = (await this.pools[shard].run(task, { signal: controller.signal })) as T;
      this.down[shard] = null;
      return answer;
    } finally {
      this.waiting[shard].delete(controller);
    }
  }

  private task(shard: number, timeoutMs: number, body: TaskBody): ShardTask {
    return { ...body, generation: this.generations[shard], deadlineAt: Date.now() + timeoutMs };
  }

  async search(request: PoolSearchRequest): Promise<PoolSearchResult> {
    const { timeoutMs, ...search } = request;
    const [answers] = await this.scatter([search], timeoutMs);
    return gatherSearch(search, answers);
  }

  /**
   * Several searches in one scatter: one task per shard carries them all (run in order, each
   * with what is left of the deadline). Answers stay the engine's bytes, per search and shard in
   * shard order, for `gatherSearch` wherever the hits are used.
   */
  async scatter(requests: ScatterRequest[], timeoutMs: number): Promise<ShardAnswer[][]> {
    if (this.shards === 0) throw errors.noShard();
    const shardRequests = await Promise.all(requests.map((request) => this.withVector(request)));
    const tasks = this.pools.map((_, shard) =>
      this.run<SearchesAnswer | ExpiredAnswer>(shard, this.task(shard, timeoutMs, { op: 'searches', requests: shardRequests })),
    );
    const settled = await settleWithin(tasks, timeoutMs + 50);
    const answers: ShardAnswer[][] = requests.map(() => []);
    settled.forEach((outcome, shard) => {
      requests.forEach((_, index) => {
        const answer = shardAnswer(outcome, index);
        if ('missed' in answer) {
          if (answer.missed === 'expired' || answer.missed === 'timeout') this.timeouts[shard]++;
          else this.failures[shard]++;
        }
        answers[index].push(answer);
      });
    });
    return answers;
  }

  /** The request as a shard takes it: with its query vector and the embedder's scoring when vectors rank it. */
  private async withVector(request: ScatterRequest): Promise<Omit<SearchRequest, 'timeoutMs'>> {
    const shardRequest = { ...request };
    const ranksByVector = request.mode === 'semantic' || request.mode === 'hybrid';
    if (ranksByVector && !shardRequest.vector && this.options.queryVector && request.query.trim() !== '') {
      shardRequest.vector = await this.options.queryVector(request.query);
    }
    if (ranksByVector && !shardRequest.vectorScoring && this.options.vectorScoring) shardRequest.vectorScoring = this.options.vectorScoring;
    return shardRequest;
  }

  /**
   * Fetch one passage. Ids do not say their shard, so every shard is asked and the one that has
   * it answers; a miss on every reachable shard is a 404 only when all shards answered.
   */
  async document(id: string, timeoutMs: number): Promise<{ document: NativeDocument | null; partial: boolean }> {
    const { bytes, partial } = await this.documentBytes(id, timeoutMs);
    return { document: bytes ? decodeDocument(bytes) : null, partial };
  }

  /**
   * One passage as the engine's MessagePack bytes, moved from the shard and not decoded here
   * (`decodeDocument` wherever it is read: an evidence worker asks for its seed this way).
   */
  async documentBytes(id: string, timeoutMs: number): Promise<{ bytes: Uint8Array | null; partial: boolean }> {
    const { found, partial } = await this.findOnShards<Uint8Array>(timeoutMs, { op: 'document', id });
    return { bytes: found, partial };
  }

  /**
   * The vector of a passage, from whichever shard holds it (the seed of a similarity search).
   * `partial` says a shard could not answer, so a miss is not proof of absence.
   */
  async passageVector(id: string, timeoutMs: number): Promise<{ vector: number[] | null; partial: boolean }> {
    const { found, partial } = await this.findOnShards<number[]>(timeoutMs, { op: 'vector', id });
    return { vector: found, partial };
  }

  /** Ask every shard for an item of one passage: the first shard that holds it answers. */
  private async findOnShards<T>(timeoutMs: number, body: LookupBody): Promise<{ found: T | null; partial: boolean }> {
    if (this.shards === 0) throw errors.noShard();
    const answers = this.pools.map((_, shard) => this.run<T | null | ExpiredAnswer>(shard, this.task(shard, timeoutMs, body)));
    const settled = await settleWithin(answers, timeoutMs + 50);
    this.count(settled);
    let answered = 0;
    for (const outcome of settled) {
      if (!outcome.ok || isExpired(outcome.value)) continue;
      if (outcome.value) return { found: outcome.value as T, partial: false };
      answered++;
    }
    if (answered === 0) throw unanswered(settled);
    return { found: null, partial: answered < settled.length };
  }

  /** Failures and missed deadlines of one scatter, per shard (settled is in shard order). */
  private count(settled: Settled<unknown>[]): void {
    settled.forEach((outcome, shard) => {
      if (outcome.ok) {
        if (isExpired(outcome.value)) this.timeouts[shard]++;
      } else if (outcome.reason === 'timeout') {
        this.timeouts[shard]++;
      } else {
        this.failures[shard]++;
      }
    });
  }

  /** Threads, queue depth, running tasks and outcomes per shard, for operators (read-only). */
  stats(): ShardStats[] {
    return this.pools.map((pool, shard) => ({
      shard,
      threads: pool.threads.length,
      queued: pool.queueSize,
      // Tasks handed to the pool and not settled, less those still queued, are on a thread.
      busy: Math.max(0, this.waiting[shard].size - pool.queueSize),
      completed: pool.completed,
      generation: this.generations[shard],
      passages: this.passages[shard],
      failures: this.failures[shard],
      timeouts: this.timeouts[shard],
    }));
  }

  async close(): Promise<void> {
    for (const file of this.commitFiles) unwatchFile(file);
    await Promise.all(this.pools.map((pool) => pool.destroy()));
  }
}
