/**
 * The server the fuzz suite drives: `packages/server/dist/main.js` as a child process (a crash
 * must not take the test runner with it), on a real two-shard index, with a key on a plan whose
 * rate no fuzz run reaches. When the process dies the suite records it and starts it again on
 * the same DATA_DIR (the usage ledger survives, so charges stay comparable).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { AccountsAdmin, openAccountsDatabase } from '@evidence/stores';

const SERVER_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export const FUZZ_TENANT = 'fuzz';

/** Creates the fuzz tenant's key before the server starts, so its first key snapshot holds it. */
export function createFuzzKey(dataDir: string): string {
  const database = openAccountsDatabase(dataDir);
  try {
    const admin = new AccountsAdmin(database);
    admin.setPlan({ name: 'fuzz', ratePerMin: 1_000_000_000, monthlyCredits: 0, hardCap: false, meteredBilling: false });
    return admin.createKey({ tenant: FUZZ_TENANT, label: 'fuzz', plan: 'fuzz' }).key;
  } finally {
    database.close();
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines the process wrote to stderr (a panic message, a stack). */
  stderrTail: string;
}

export class FuzzServer {
  base = '';
  port = 0;
  restarts = 0;
  private child: ChildProcess | null = null;
  private stderr = '';
  private exit: Exit | null = null;

  constructor(private readonly dataDir: string, private readonly env: Record<string, string> = {}) {}

  async start(): Promise<void> {
    this.stderr = '';
    this.exit = null;
    const child = spawn(process.execPath, [SERVER_MAIN], {
      env: {
        ...process.env,
        DATA_DIR: this.dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        KEY_REFRESH_MS: '200',
        // keyless and malformed calls are part of the run; the per-address flood limit is not under test
        AUTH_FAIL_LIMIT: '1000000000',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-8_000);
    });
    child.once('exit', (code, signal) => {
      this.exit = { code, signal, stderrTail: this.stderrTail() };
    });
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => reject(new Error(`fuzz server did not start within 30 s\n${this.stderr}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening on http:\/\/([^\s:]+):(\d+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          this.port = Number(match[2]);
          this.base = `http://127.0.0.1:${this.port}`;
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`fuzz server exited before listening (code ${code}, signal ${signal})\n${this.stderr}`));
      });
    });
  }

  stderrTail(): string {
    return this.stderr.trim().split('\n').slice(-6).join('\n');
  }

  /** The exit of the process, once it has died (null while it runs). */
  exited(): Exit | null {
    return this.exit;
  }

  /**
   * Whether the process still serves: it has not exited and /healthz answers 200 'ok'. A
   * process that exited is waited for briefly (the exit event may trail a reset connection).
   */
  async alive(): Promise<boolean> {
    if (this.exit) return false;
    try {
      const response = await fetch(`${this.base}/healthz`, { signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      if (response.status === 200 && body === 'ok') return true;
    } catch {
      // fall through: wait for the exit event
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    return false;
  }

  /** Kill what is left of the process (only this child) and start a fresh one. */
  async restart(): Promise<void> {
    await this.stop();
    this.restarts += 1;
    await this.start();
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    this.child = null;
  }
}

export interface RawAnswer {
  /** Everything the server wrote before it closed the connection or the wait ended. */
  bytes: Buffer;
  /** The server closed the connection (false: the wait ran out with the socket open). */
  closed: boolean;
  error: string | null;
}

/** Writes `chunks` to a fresh TCP connection and collects what comes back within `waitMs`. */
export function rawExchange(port: number, chunks: Array<string | Buffer>, waitMs = 1_500): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    let error: string | null = null;
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(received), closed, error });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (cause) => {
      error = cause.message;
    });
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

export interface RawResponse {
  statusLine: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Splits what a server wrote into HTTP/1.1 responses (content-length or chunked bodies; a
 * response to HEAD is read as having no body, as the client would). What does not parse is
 * left in `rest`.
 */
export function parseResponses(bytes: Buffer, headRequests: boolean[] = []): { responses: RawResponse[]; rest: Buffer } {
  const responses: RawResponse[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const headerEnd = bytes.indexOf('\r\n\r\n', offset);
    if (headerEnd < 0) break;
    const lines = bytes.subarray(offset, headerEnd).toString('latin1').split('\r\n');
    const statusLine = lines[0];
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!match) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = headerEnd + 4;
    let body: Buffer = Buffer.alloc(0);
    const isHead = headRequests[responses.length] ?? false;
    if (isHead) {
      // a HEAD answer has no body whatever its headers say; bytes that follow belong to the next response or are a stray body
    } else if (headers['transfer-encoding']?.includes('chunked')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = bytes.indexOf('\r\n', cursor);
        if (lineEnd < 0) break;
        const size = parseInt(bytes.subarray(cursor, lineEnd).toString('latin1'), 16);
        cursor = lineEnd + 2;
        if (!Number.isFinite(size) || size === 0) {
          cursor += 2;
          break;
        }
        parts.push(bytes.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = bytes.subarray(cursor, cursor + length);
      cursor += length;
    }
    responses.push({ statusLine, status: Number(match[1]), headers, body });
    offset = cursor;
  }
  return { responses, rest: bytes.subarray(offset) };
}
