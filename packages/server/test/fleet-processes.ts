/**
 * Helpers of the fleet end-to-end tests: server processes (`node packages/server/dist/main.js`),
 * a fresh PostgreSQL database per run, and TCP proxies standing in front of PostgreSQL and
 * Redis so a test can make either unreachable (connections cut, new ones refused) and back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const FLEET_DATABASE_URL = process.env.DATABASE_URL_TEST || '';
export const FLEET_REDIS_URL = process.env.REDIS_URL_TEST || '';
export const FLEET_AVAILABLE = FLEET_DATABASE_URL !== '' && FLEET_REDIS_URL !== '';
export const FLEET_SKIPPED = FLEET_AVAILABLE
  ? ''
  : ' (SKIPPED: no PostgreSQL/Redis; set DATABASE_URL_TEST and REDIS_URL_TEST, see scripts/fleet-stores.sh)';
if (!FLEET_AVAILABLE && process.env.FLEET_TESTS_REQUIRED) {
  throw new Error('FLEET_TESTS_REQUIRED is set but DATABASE_URL_TEST or REDIS_URL_TEST is missing');
}
if (!FLEET_AVAILABLE) console.warn(`fleet server tests skipped${FLEET_SKIPPED}`);

const SERVER_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
  /** SIGKILL, by this child's own handle; resolves once it exited */
  kill(): Promise<void>;
}

export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`server did not start within 30 s\n${output()}`));
    }, 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/[^\s:]+:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1], output, kill });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (code ${code}, signal ${signal})\n${output()}`));
    });
  });
}

/** A fresh, empty database on the test server; `drop` removes it (connections forced out). */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `evidence_fleet_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: FLEET_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(FLEET_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Forwards 127.0.0.1:port to a target; `cut` stops it as a stopped server would look. */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(targetUrl: string): Promise<TcpProxy> {
    const url = new URL(targetUrl);
    const proxy = new TcpProxy(url.hostname, Number(url.port));
    await proxy.listen(0);
    return proxy;
  }

  /** `targetUrl` with its host and port replaced by the proxy's. */
  urlFor(targetUrl: string): string {
    const url = new URL(targetUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Drops every connection and refuses new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      this.sockets.add(client);
      this.sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as { port: number }).port;
        resolve();
      });
    });
  }
}
