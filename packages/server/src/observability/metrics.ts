/**
 * GET /metrics: the service's counters, gauges and histograms in the Prometheus text format,
 * through prom-client. Each server has its own registry (tests run several in one process).
 * Labels are route patterns (`/doc/:id`, never a raw path), capability names, statuses, shard
 * numbers and causes: bounded sets. Tenant names appear only when an operator turns
 * `METRICS_TENANT_LABELS` on; keys and key hashes never do.
 *
 * Request counts, latencies, credits, partial answers and 429 causes are counted as they
 * happen; shard pool, evidence gate and index figures are read when a scrape collects them.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ShardPool, ShardStats } from '@evidence/pool';
import { refusalCauseOf, type ErrorKind } from '@evidence/schemas';
import type { Stores } from '@evidence/stores';
import type { EvidenceGate } from '../evidence-gate.js';
import type { IndexVectors } from '../embedding/index-vectors.js';


/** Seconds: a keyword search answers in about a millisecond, ground in tens, a timeout in 2 s. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LEDGER_ROW_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
const COMMIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const GATE_WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10];

export interface MetricsOptions {
  /** Add a `tenant` label to credits billed (off by default: tenant names stay out of metrics). */
  tenantLabels: boolean;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly tenantLabels: boolean;
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly latency: Histogram<'route'>;
  private readonly credits: Counter<string>;
  private readonly partials: Counter<'route'>;
  private readonly refusals: Counter<'cause'>;

  constructor(options: MetricsOptions) {
    this.tenantLabels = options.tenantLabels;
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'evidence_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'evidence_http_request_duration_seconds',
      help: 'Time from a request to its answer written, by route pattern',
      labelNames: ['route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.credits = new Counter({
      name: 'evidence_credits_billed_total',
      help: 'Credits settled in the usage ledger, by capability (and tenant when METRICS_TENANT_LABELS is on)',
      labelNames: this.tenantLabels ? ['route', 'tenant'] : ['route'],
      registers,
    });
    this.partials = new Counter({
      name: 'evidence_partial_answers_total',
      help: 'Answers marked partial (a shard failed or missed the deadline), by capability',
      labelNames: ['route'],
      registers,
    });
    this.refusals = new Counter({
      name: 'evidence_rate_limited_total',
      help: '429 refusals by cause: rate (per-minute credits), hard_cap (monthly credits under a hard cap), address (failed authentications from one address)',
      labelNames: ['cause'],
      registers,
    });
    for (const cause of ['rate', 'hard_cap', 'address'] as const) this.refusals.inc({ cause }, 0);
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** One answered request. `route` is the matched pattern, `(unmatched)` or `(malformed)`. */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route }, seconds);
  }

  /** Credits settled for one call of a capability (its cost, or its failure cost). */
  billed(route: string, credits: number, tenant: string): void {
    if (credits <= 0) return;
    if (this.tenantLabels) this.credits.inc({ route, tenant }, credits);
    else this.credits.inc({ route }, credits);
  }

  partial(route: string): void {
    this.partials.inc({ route });
  }

  /** Count a 429 by its cause; other errors are not refusals and are ignored. */
  refused(kind: ErrorKind): void {
    const cause = refusalCauseOf(kind);
    if (cause) this.refusals.inc({ cause });
  }

  /** The HTTP layer serving (evidence_http_layer{layer="uws"|"node"} 1). */
  httpLayer(layer: string): void {
    new Gauge({ name: 'evidence_http_layer', help: 'The HTTP layer serving: uws (uWebSockets.js) or node (node:http); always 1', labelNames: ['layer'], registers: [this.registry] }).set({ layer }, 1);
  }

  /** The query vector cache and, on the node that runs it, the background embedder's progress. */
  watchVectors(vectors: IndexVectors): void {
    const registers = [this.registry];
    const reported = { hit: 0, miss: 0 };
    new Counter({
      name: 'evidence_query_embeddings_total',
      help: 'Query texts that needed a vector from the model: `hit` answered from the cache, `miss` ran the model',
      labelNames: ['cache'],
      registers,
      collect() {
        const stats = vectors.queries?.stats;
        if (!stats) return;
        this.inc({ cache: 'hit' }, stats.hits - reported.hit);
        this.inc({ cache: 'miss' }, stats.misses - reported.miss);
        reported.hit = stats.hits;
        reported.miss = stats.misses;
      },
    });
    new Gauge({
      name: 'evidence_passages_embedded',
      help: 'Live passages with a vector, as the background embedder of this node last counted (absent on nodes that do not embed)',
      registers,
      collect() {
        const status = vectors.background?.status();
        if (status?.running && status.reported) this.set(status.embedded);
      },
    });
    new Gauge({
      name: 'evidence_passages_waiting_for_vectors',
      help: 'Live passages the background embedder of this node has not embedded yet',
      registers,
      collect() {
        const status = vectors.background?.status();
        if (status?.running && status.reported) this.set(status.passages - status.embedded);
      },
    });
  }

  /** Gauges and counters read from the shard pool, the evidence gate and the usage ledger. */
  watch(pool: ShardPool, gate: EvidenceGate, stores: Stores): void {
    const registers = [this.registry];
    let shardStats: ShardStats[] = [];
    // One read of the pool per scrape: the first shard gauge collected takes it.
    const readPool = () => {
      shardStats = pool.stats();
    };
    const shardGauge = (name: string, help: string, value: (stats: ShardStats) => number, first = false) =>
      new Gauge({
        name,
        help,
        labelNames: ['shard'],
        registers,
        collect() {
          if (first) readPool();
          for (const stats of shardStats) this.set({ shard: String(stats.shard) }, value(stats));
        },
      });
    shardGauge('evidence_shard_queue_depth', 'Search tasks waiting for a worker thread, per shard', (stats) => stats.queued, true);
    shardGauge('evidence_shard_busy_workers', 'Worker threads running a task, per shard', (stats) => stats.busy);
    shardGauge('evidence_shard_workers', 'Worker threads alive, per shard', (stats) => stats.threads);
    shardGauge('evidence_index_generation', 'Commit generation the server has seen, per shard (moves on every commit)', (stats) => stats.generation);
    shardGauge('evidence_shard_passages', 'Passages in the last commit of each shard', (stats) => stats.passages);
    const shardCounter = (name: string, help: string, value: (stats: ShardStats) => number) => {
      const reported = new Map<number, number>();
      return new Counter({
        name,
        help,
        labelNames: ['shard'],
        registers,
        collect() {
          for (const stats of shardStats) {
            const now = value(stats);
            this.inc({ shard: String(stats.shard) }, now - (reported.get(stats.shard) ?? 0));
            reported.set(stats.shard, now);
          }
        },
      });
    };
    shardCounter('evidence_shard_failures_total', 'Shard tasks that failed (shard down, worker error, queue full), per shard', (stats) => stats.failures);
    shardCounter('evidence_shard_timeouts_total', 'Shard tasks that missed their deadline, per shard', (stats) => stats.timeouts);

    new Gauge({
      name: 'evidence_gate_running',
      help: 'Evidence calls (ground, changes, assemble_context) searching now',
      registers,
      collect() {
        this.set(gate.stats().running);
      },
    });
    new Gauge({
      name: 'evidence_gate_waiting',
      help: 'Evidence calls waiting their turn at the gate',
      registers,
      collect() {
        this.set(gate.stats().waiting);
      },
    });
    const gateWaits = new Histogram({
      name: 'evidence_gate_wait_seconds',
      help: 'Time evidence calls that had to wait spent at the gate (its count is the number of waits)',
      buckets: GATE_WAIT_BUCKETS,
      registers,
    });
    gate.onWait((seconds) => gateWaits.observe(seconds));

    const ledgerRows = new Histogram({
      name: 'evidence_ledger_batch_rows',
      help: 'Usage ledger rows per group commit',
      buckets: LEDGER_ROW_BUCKETS,
      registers,
    });
    const ledgerCommit = new Histogram({
      name: 'evidence_ledger_commit_seconds',
      help: 'Time of a usage ledger group commit, its fsync included',
      buckets: COMMIT_BUCKETS,
      registers,
    });
    stores.onLedgerCommit((commit) => {
      ledgerRows.observe(commit.rows);
      ledgerCommit.observe(commit.commitSeconds);
    });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
