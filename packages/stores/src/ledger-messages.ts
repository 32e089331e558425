/** The protocol between the main thread's LedgerWriter and the ledger worker thread. */

/** tenant, route, credits, at (unix ms), request id: a tuple clones faster than an object */
export type LedgerRowTuple = [string, string, number, number, string];

export interface LedgerWorkerData {
  databasePath: string;
  /** commit at once when this many rows are waiting */
  maxRowsPerCommit: number;
  /** while other billed calls are still running, how long rows wait for theirs before a commit */
  groupCommitDelayMs: number;
}

export type ToLedgerWorker =
  /** `othersOpen`: other billed calls were still running when the batch left (their rows will follow). */
  | { type: 'append'; batchId: number; rows: LedgerRowTuple[]; othersOpen: boolean }
  | { type: 'close' };

export type FromLedgerWorker =
  | { type: 'ready' }
  /** `rows` went in one transaction whose commit (with its fsync) took `commitSeconds`. */
  | { type: 'committed'; batchIds: number[]; rows: number; commitSeconds: number }
  | { type: 'failed'; batchIds: number[]; message: string }
  | { type: 'closed' };
