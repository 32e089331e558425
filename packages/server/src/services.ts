/** What handlers run against: the shard pool, the evidence workers and ledger, the stores and the settings. */
import type { EvidencePool, HiddenTextIndex, LedgerIndex, PageGraph, RetrievalSettings } from '@evidence/evidence';
import type { ShardPool } from '@evidence/pool';
import type { Stores } from '@evidence/stores';
import type { ServerConfig } from './config.js';
import type { IndexVectors } from './embedding/index-vectors.js';
import type { EvidenceGate } from './evidence-gate.js';
import type { InFlight } from './in-flight.js';
import type { ServiceMetrics } from './observability/metrics.js';

export interface Services {
  pool: ShardPool;
  /** Worker threads computing ground, changes and assemble_context answers. */
  evidence: EvidencePool;
  /** The admission ledger, followed as it grows (why_not, changes' known_urls). */
  ledger: LedgerIndex;
  /** Pages that hid text from readers (DATA_DIR/hidden-text.jsonl), for the hidden_text flag. */
  hiddenText: HiddenTextIndex;
  /** The page link graph, followed as ingest appends to it (related, path). */
  graph: PageGraph;
  stores: Stores;
  config: ServerConfig;
  /** Capability calls under way (a shutdown waits for them). */
  inFlight: InFlight;
  /** Admission of ground, changes and assemble_context calls. */
  evidenceGate: EvidenceGate;
  /** Counters, gauges and histograms GET /metrics reports. */
  metrics: ServiceMetrics;
  /** The index's embedder, its query vectors and the background embedder. */
  vectors: IndexVectors;
}

/** The mode a search runs in: without an embedder there is no vector ranking (as in search). */
export function effectiveMode<Mode extends string>(services: Services, mode: Mode): Mode | 'keyword' {
  return services.config.embedder === 'none' ? 'keyword' : mode;
}

/** What an evidence retrieval needs of this node's settings. */
export function retrievalSettings(services: Services): RetrievalSettings {
  return { searchTimeoutMs: services.config.searchTimeoutMs, vectorsMatch: services.vectors.spec.runs === 'model' };
}
