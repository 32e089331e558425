/**
 * The ledger worker thread: group commit of usage rows, without a timer. A row that finds the
 * worker idle is committed at once (a lone call waits for its own fsync and nothing else); rows
 * that arrive while a commit runs queue on the port and go together into the next transaction,
 * so one fsync serves every call that arrived during the last one (at most `maxRowsPerCommit`
 * rows per transaction). Every batch is acknowledged only after its commit returned. The main
 * thread never waits on the disk.
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

function send(message: FromLedgerWorker): void {
  port.postMessage(message);
}

function commitWaitingBatches(): void {
  commitScheduled = false;
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
  // after every message already on the port: those that came during the last commit share this one
  if (!commitScheduled) {
    commitScheduled = true;
    setImmediate(commitWaitingBatches);
  }
});

send({ type: 'ready' });
