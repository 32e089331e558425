import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ServiceError } from '@evidence/schemas';
import { openStores, type OpenStoresOptions, type Stores } from '../src/index.js';

const temporaryDirectories: string[] = [];
const openedStores: Stores[] = [];

afterEach(async () => {
  await Promise.all(openedStores.splice(0).map((stores) => stores.close()));
  for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
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

/** Runs `action` and returns the ServiceError it threw (fails the test if it threw nothing else). */
export function serviceErrorOf(action: () => unknown): ServiceError {
  try {
    action();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError, nothing was thrown');
}
