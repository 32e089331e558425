import pg from 'pg';

export interface PostgresConnectionOptions {
  /** every query (and connecting) gives up after this long, server side and client side; default 2,000 */
  queryTimeoutMs?: number;
  /** pool size per process; default 10 */
  maxConnections?: number;
}

const INT8_OID = 20;

/**
 * bigint columns (unix ms, counts) as JS numbers: every value we store is far below 2^53, and
 * `SUM()` is cast to bigint in the queries.
 */
const numericTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A pool whose every wait is bounded: connecting, each statement on the server
 * (`statement_timeout`) and each query on the client (`query_timeout`, a server that stopped
 * answering). Nothing on the request path can hang on PostgreSQL.
 */
export function openPostgresPool(connectionString: string, options: PostgresConnectionOptions = {}): pg.Pool {
  const timeoutMs = options.queryTimeoutMs ?? 2_000;
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 500,
    idleTimeoutMillis: 30_000,
    types: numericTypes,
  });
  // an idle connection that breaks (server restart) must not crash the process; the next
  // query opens a new one
  pool.on('error', () => {});
  return pool;
}

export function postgresClientConfig(connectionString: string, timeoutMs = 2_000): pg.ClientConfig {
  return { connectionString, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs + 500, types: numericTypes };
}

/** Runs `work` in one transaction on one pooled connection. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
