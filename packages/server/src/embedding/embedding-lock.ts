/**
 * One background embedder per index: the node that holds `DATA_DIR/embedding.lock` embeds, the
 * others (fleet nodes over the same DATA_DIR) only serve the vectors it stores. A lock left by a
 * process of this host that is gone is taken over; one from another host is respected until
 * removed by hand (the README says when).
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const EMBEDDING_LOCK_FILE = 'embedding.lock';

interface LockHolder {
  pid: number;
  host: string;
  since: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(path: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}

/** Take the lock, or null when another live process holds it. `release` removes it. */
export function takeEmbeddingLock(dataDir: string): { release(): void } | null {
  const path = join(dataDir, EMBEDDING_LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now() } satisfies LockHolder));
      closeSync(fd);
      return {
        release() {
          if (holderOf(path)?.pid === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = holderOf(path);
      const stale = holder === null || (holder.host === hostname() && holder.pid !== process.pid && !alive(holder.pid));
      if (!stale) return null;
      rmSync(path, { force: true });
    }
  }
  return null;
}
