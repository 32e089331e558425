/**
 * A real server over a real two-shard index in a temp DATA_DIR, with a real key in a real
 * SQLite store. Tests talk to it over HTTP with fetch.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShardWriter, ensureManifest, shardDirectory, type Passage } from '@evidence/native';
import { readConfig, startServer, type RunningServer, type StartOptions } from '@evidence/server';
import { expect } from 'vitest';

export function passage(id: string, text: string, overrides: Partial<Passage> = {}): Passage {
  const [pageId, passageNo] = id.split(':');
  return {
    id, pageId, passageNo: Number(passageNo), url: `https://example.org/${pageId}/${passageNo}`, host: 'example.org',
    registrableDomain: 'example.org', owner: 'example.org', title: `Page ${pageId}`, text, vertical: 'cooking',
    lang: 'en', hostRank: 0.5, quality: 50, fetchedAt: 1_700_000_000, source: 'cc', storyId: `s-${id}`, tld: 'org',
    wordCount: text.split(/\s+/).length, ...overrides,
  };
}

/**
 * The HTTP layer the suite runs against: HTTP_LAYER of the test run (CI runs the suite once with
 * node:http and once with uWS: .ci/run), node when unset. Every server a test starts, in-process
 * or as a child process (which inherits the environment), is started on it.
 */
export const HTTP_LAYER: 'uws' | 'node' = process.env.HTTP_LAYER === 'uws' ? 'uws' : 'node';

function layerSetting(): Record<string, string> {
  return { HTTP_LAYER };
}

export interface TestServer {
  base: string;
  key: string;
  dataDir: string;
  server: RunningServer;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Runs on the written index before the server opens it (e.g. to break a shard). */
  beforeStart?: (dataDir: string) => void;
  /** Where the server's log lines go (LOG_LEVEL defaults to silent here unless `env` sets it). */
  logDestination?: StartOptions['logDestination'];
}

/** An index of `shardPassages` (one list per shard), committed, in `dataDir`: what a server opens. */
export function writeIndex(dataDir: string, shardPassages: Passage[][]): void {
  ensureManifest(dataDir, shardPassages.length);
  shardPassages.forEach((passages, shard) => {
    const writer = ShardWriter.open(shardDirectory(dataDir, shard));
    writer.add(passages);
    writer.commit();
    writer.close();
  });
}

export async function startTestServer(shardPassages: Passage[][], env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'server-'));
  writeIndex(dataDir, shardPassages);
  options.beforeStart?.(dataDir);
  const config = readConfig({ DATA_DIR: dataDir, PORT: '0', KEY_REFRESH_MS: '50', LOG_LEVEL: 'silent', ...layerSetting(), ...env });
  const server = await startServer(config, { logDestination: options.logDestination });
  const key = await server.services.stores.ensureDevelopmentKey();
  if (!key) throw new Error('fixture expected a fresh development key');
  const base = `http://127.0.0.1:${server.port}`;
  return {
    base,
    key,
    dataDir,
    server,
    get: (path, headers = { 'x-api-key': key }) => fetch(`${base}${path}`, { headers }),
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A real server over what `npm run ingest` made of some files: GET as its development key, expecting 200. */
export interface IngestedServer {
  get<T>(path: string): Promise<T>;
  close(): Promise<void>;
}

const INGEST_CLI = fileURLToPath(new URL('../../ingest/dist/cli.js', import.meta.url));

/**
 * `npm run ingest -- FILES...` (the CLI as a child process) into `dataDir`, then a real server on
 * it, as an operator would run them. `close` stops the server; the caller owns `dataDir`.
 */
export async function startIngestedServer(files: string[], dataDir: string): Promise<IngestedServer> {
  const ingest = spawnSync('node', [INGEST_CLI, ...files], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
  expect(ingest.status, ingest.stderr).toBe(0);
  const server: RunningServer = await startServer(readConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...layerSetting() }));
  const key = (await server.services.stores.ensureDevelopmentKey())!;
  return {
    async get<T>(path: string): Promise<T> {
      const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { 'x-api-key': key } });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    },
    close: () => server.close(),
  };
}
