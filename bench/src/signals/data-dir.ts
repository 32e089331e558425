/** Where the labelled signal sets live: `SIGNALS_DATA` (halves.ts), default `../shared/data/signals` beside the repository. */
import { SIGNALS_DATA } from './halves.js';

export function signalsDataDir(): string {
  return SIGNALS_DATA;
}
