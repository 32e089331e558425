/**
 * The ledger worker thread: group commit of usage rows. The row of a lone call (no other billed
 * call running when it was sent) is committed at once: it waits for its own fsync and nothing
 * else. While other billed calls are still running, rows wait up to `groupCommitDelayMs` for
 * theirs (or until a batch says no call is left running, or `maxRowsPerCommit`), so under load
 * one fsync serves many calls; committing each row as it came made a commit per 1.3 rows at 16
 * connections, against 2.8 with the wait, and cost 8% of keyword throughput. Rows that arrive
 * while a commit runs queue on the port and go together into the next transaction. Every batch
 * is acknowledged only after its commit returned. The main thread never waits on the disk.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { configureConnection } from './connection-settings.js';
import type { FromLedgerWorker, LedgerRowTuple, LedgerWorkerData, ToLedgerWorker } from './ledger-messages.js';

const port = parentPort!;
const settings = workerData as LedgerWorkerData;

const database = new BetterSqlite3(settings.databasePath);
configureConnection(database);
const insertRow = database.prepare(
  'INSERT INTO usage_ledger (tenant, route, credits, at, request_id) VALUES (?, ?, ?, ?, ?)',
);
const insertRowsInOneTransaction = database.transaction((batches: { rows: LedgerRowTuple[] }[]) => {
  for (const batch of batches) {
    for (const row of batch.rows) insertRow.run(row);
  }
});

let waitingBatches: { batchId: number; rows: LedgerRowTuple[] }[] = [];
let waitingRowCount = 0;
let commitScheduled = false;
let commitTimer: NodeJS.Timeout | null = null;

function send(message: FromLedgerWorker): void {
  port.postMessage(message);
}

function commitWaitingBatches(): void {
  commitScheduled = false;
  if (commitTimer !== null) {
    clearTimeout(commitTimer);
    commitTimer = null;
  }
  if (waitingBatches.length === 0) return;
  const batches = waitingBatches;
  const rows = waitingRowCount;
  waitingBatches = [];
  waitingRowCount = 0;
  const batchIds = batches.map((batch) => batch.batchId);
  try {
    const startedAt = process.hrtime.bigint();
    insertRowsInOneTransaction(batches);
    const commitSeconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    send({ type: 'committed', batchIds, rows, commitSeconds });
  } catch (error) {
    send({ type: 'failed', batchIds, message: error instanceof Error ? error.message : String(error) });
  }
}

port.on('message', (message: ToLedgerWorker) => {
  if (message.type === 'close') {
    commitWaitingBatches();
    database.close();
    send({ type: 'closed' });
    port.close();
    return;
  }
  waitingBatches.push({ batchId: message.batchId, rows: message.rows });
  waitingRowCount += message.rows.length;
  if (waitingRowCount >= settings.maxRowsPerCommit) {
    commitWaitingBatches();
    return;
  }
  if (message.othersOpen) {
    // other calls are still running: wait a moment for their rows (a commit already due stays due)
    if (!commitScheduled && commitTimer === null) commitTimer = setTimeout(commitWaitingBatches, settings.groupCommitDelayMs);
    return;
  }
  // no call left running: commit after every message already on the port (those that came
  // during the last commit share this one)
  if (!commitScheduled) {
    commitScheduled = true;
    setImmediate(commitWaitingBatches);
  }
});

send({ type: 'ready' });
