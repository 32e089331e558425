import type pg from 'pg';
import type { LedgerCommit } from '../ledger-writer.js';
import type { LedgerRow } from '../records.js';

interface Batch {
  rows: LedgerRow[];
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface PostgresLedgerOptions {
  /** while a commit is in flight, rows arriving within this long share the next INSERT and commit; default 1 */
  groupCommitDelayMs?: number;
  /** commit at once when this many rows wait; default 512 */
  maxRowsPerCommit?: number;
}

/**
 * The fleet's usage ledger: group commit into PostgreSQL. A row that finds no commit in flight
 * goes out at the end of its event-loop turn (with the rows appended in that turn), so a lone
 * call waits for its own commit and no timer; while a commit is in flight, rows appended within
 * `groupCommitDelayMs` (across every concurrent call of this node) gather into one multi-row
 * INSERT, one transaction, one WAL flush. Each `append` resolves only after that commit
 * returned, so an answered call's row survives the node's SIGKILL. A commit that fails or times
 * out (the pool's statement and query timeouts) rejects every row of its batch: those calls
 * answer 503 and are not billed.
 */
export class PostgresLedger {
  private openBatch: Batch | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;
  private readonly commitListeners: ((commit: LedgerCommit) => void)[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PostgresLedgerOptions = {},
  ) {}

  append(row: LedgerRow): Promise<void> {
    if (this.closed) return Promise.reject(new Error('usage ledger is closed'));
    const batch = this.openBatch ?? this.startBatch();
    batch.rows.push(row);
    if (batch.rows.length >= (this.options.maxRowsPerCommit ?? 512)) this.sendOpenBatch();
    return batch.committed;
  }

  /** Called after every batch's commit: its rows and how long the INSERT and its commit took. */
  onCommit(listener: (commit: LedgerCommit) => void): void {
    this.commitListeners.push(listener);
  }

  /** Credits billed to `tenant` since `sinceMs` (the month total Redis is seeded from). */
  async usedSince(tenant: string, sinceMs: number): Promise<number> {
    const result = await this.pool.query<{ used: number }>(
      'SELECT COALESCE(SUM(credits), 0)::bigint AS used FROM usage_ledger WHERE tenant = $1 AND at >= $2',
      [tenant, sinceMs],
    );
    return result.rows[0].used;
  }

  async flush(): Promise<void> {
    this.sendOpenBatch();
    await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private startBatch(): Batch {
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const committed = new Promise<void>((resolvePromise, rejectPromise) => {
      resolve = resolvePromise;
      reject = rejectPromise;
    });
    const batch: Batch = { rows: [], committed, resolve, reject };
    this.openBatch = batch;
    const send = () => {
      if (this.openBatch === batch) this.sendOpenBatch();
    };
    if (this.inFlight.size === 0) setImmediate(send);
    else setTimeout(send, this.options.groupCommitDelayMs ?? 1);
    return batch;
  }

  private sendOpenBatch(): void {
    const batch = this.openBatch;
    if (batch === null) return;
    this.openBatch = null;
    const values: unknown[] = [];
    const tuples = batch.rows.map((row, index) => {
      values.push(row.tenant, row.route, row.credits, row.at, row.requestId);
      const first = index * 5;
      return `($${first + 1}, $${first + 2}, $${first + 3}, $${first + 4}, $${first + 5})`;
    });
    // one statement outside a transaction block is its own transaction: one commit per batch
    const started = process.hrtime.bigint();
    const commit = this.pool
      .query(`INSERT INTO usage_ledger (tenant, route, credits, at, request_id) VALUES ${tuples.join(', ')}`, values)
      .then(
        () => {
          const report: LedgerCommit = { rows: batch.rows.length, commitSeconds: Number(process.hrtime.bigint() - started) / 1e9 };
          for (const listener of this.commitListeners) listener(report);
          batch.resolve();
        },
        (error: Error) => batch.reject(new Error(`usage ledger write failed: ${error.message}`)),
      );
    this.inFlight.add(commit);
    commit.finally(() => this.inFlight.delete(commit));
  }
}
