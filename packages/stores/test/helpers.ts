import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ServiceError } from '@evidence/schemas';
import { openStores, type OpenStoresOptions, type Stores } from '../src/index.js';

const temporaryDirectories: string[] = [];
const openedStores: Stores[] = [];

const createdDatabases: string[] = [];

afterEach(async () => {
  await Promise.all(openedStores.splice(0).map((stores) => stores.close()));
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
  await dropCreatedDatabases();
  await forgetRedisPrefixes();
});

export function temporaryDataDir(): string {
  const directory = mkdtempSync(join(tmpdir(), 'evidence-stores-'));
  temporaryDirectories.push(directory);
  return directory;
}

/** A clock tests move by hand: windows, periods and ledger rows all read it. */
export function manualClock(startIso = '2031-05-14T10:20:30.000Z') {
  const clock = { nowMs: Date.parse(startIso), now: () => clock.nowMs };
  return clock;
}

export async function openTestStores(options: Partial<OpenStoresOptions> = {}): Promise<Stores> {
  const stores = await openStores({ dataDir: options.dataDir ?? temporaryDataDir(), ...options });
  openedStores.push(stores);
  return stores;
}

/** Runs `action` and returns the ServiceError it threw or rejected with (fails the test otherwise). */
export async function serviceErrorOf(action: () => unknown): Promise<ServiceError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError, nothing was thrown');
}

/**
 * Fleet mode under test: real PostgreSQL and Redis, given as DATABASE_URL_TEST and
 * REDIS_URL_TEST (`scripts/fleet-stores.sh start` prints both; `.ci/run` sets them). Without
 * them the fleet suites are skipped with this reason in their name; with FLEET_TESTS_REQUIRED
 * set (CI), their absence fails the run instead.
 */
export const FLEET_DATABASE_URL = process.env.DATABASE_URL_TEST || '';
export const FLEET_REDIS_URL = process.env.REDIS_URL_TEST || '';
export const FLEET_AVAILABLE = FLEET_DATABASE_URL !== '' && FLEET_REDIS_URL !== '';
export const FLEET_SKIPPED = FLEET_AVAILABLE
  ? ''
  : ' (SKIPPED: no PostgreSQL/Redis; set DATABASE_URL_TEST and REDIS_URL_TEST, see scripts/fleet-stores.sh)';
if (!FLEET_AVAILABLE && process.env.FLEET_TESTS_REQUIRED) {
  throw new Error('FLEET_TESTS_REQUIRED is set but DATABASE_URL_TEST or REDIS_URL_TEST is missing');
}
if (!FLEET_AVAILABLE) console.warn(`fleet tests skipped${FLEET_SKIPPED}`);

async function dropCreatedDatabases(): Promise<void> {
  const names = createdDatabases.splice(0);
  if (names.length === 0) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: FLEET_DATABASE_URL });
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database on the test server; dropped after the test. */
export async function freshFleetDatabase(): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `evidence_test_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const client = new pg.Client({ connectionString: FLEET_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  createdDatabases.push(name);
  const url = new URL(FLEET_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const usedRedisPrefixes: string[] = [];

/** A Redis key prefix no other test uses; its keys are deleted after the test. */
export function freshRedisPrefix(): string {
  const prefix = `test:${process.pid}:${Date.now().toString(36)}:${Math.floor(Math.random() * 1e9)}:`;
  usedRedisPrefixes.push(prefix);
  return prefix;
}

async function forgetRedisPrefixes(): Promise<void> {
  const prefixes = usedRedisPrefixes.splice(0);
  if (prefixes.length === 0) return;
  const { Redis } = await import('ioredis');
  const redis = new Redis(FLEET_REDIS_URL);
  try {
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

export type Backend = 'embedded' | 'fleet';

/** The same stores, embedded (SQLite) or fleet (a fresh PostgreSQL database, a fresh Redis prefix). */
export async function openBackendStores(backend: Backend, options: Partial<OpenStoresOptions> = {}): Promise<Stores> {
  if (backend === 'embedded') return openTestStores(options);
  const stores = await openStores({
    dataDir: temporaryDataDir(),
    databaseUrl: options.databaseUrl ?? (await freshFleetDatabase()),
    redisUrl: FLEET_REDIS_URL,
    redisKeyPrefix: options.redisKeyPrefix ?? freshRedisPrefix(),
    seedGraceMs: 0,
    ...options,
  });
  openedStores.push(stores);
  return stores;
}
