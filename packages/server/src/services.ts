/** What handlers run against: the shard pool, the evidence workers and ledger, the stores and the settings. */
import type { EvidencePool, LedgerIndex } from '@evidence/evidence';
import type { ShardPool } from '@evidence/pool';
import type { Stores } from '@evidence/stores';
import type { ServerConfig } from './config.js';
import type { EvidenceGate } from './evidence-gate.js';
import type { InFlight } from './in-flight.js';
import type { ServiceMetrics } from './observability/metrics.js';

export interface Services {
  pool: ShardPool;
  /** Worker threads computing ground, changes and assemble_context answers. */
  evidence: EvidencePool;
  /** The admission ledger, followed as it grows (why_not, changes' known_urls). */
  ledger: LedgerIndex;
  stores: Stores;
  config: ServerConfig;
  /** Capability calls under way (a shutdown waits for them). */
  inFlight: InFlight;
  /** Admission of ground, changes and assemble_context calls. */
  evidenceGate: EvidenceGate;
  /** Counters, gauges and histograms GET /metrics reports. */
  metrics: ServiceMetrics;
}
