/** Where the labelled signal sets live: SIGNALS_DATA_DIR, default `../shared/data/signals` from the repository root. */
import { resolve } from 'node:path';

export function signalsDataDir(): string {
  return resolve(process.cwd(), process.env.SIGNALS_DATA_DIR || '../shared/data/signals');
}
