import { Redis } from 'ioredis';
import { ServiceError, errors } from '@evidence/schemas';
import {
  FAILURE_RECORD_SCRIPT,
  FAILURE_REFUSAL_SCRIPT,
  RELEASE_SCRIPT,
  RESERVE_SCRIPT,
  SEED_SCRIPT,
  SETTLE_SCRIPT,
  STATUS_SCRIPT,
  TAKE_MINUTE_SCRIPT,
  UNBILL_SCRIPT,
} from './redis-scripts.js';

/** Seconds a caller is told to wait when a fleet store cannot be reached. */
export const STORE_RETRY_AFTER_SECONDS = 1;

type ScriptCall = (...keysThenArgs: (string | number)[]) => Promise<unknown>;

/** The scripts, each sent as EVALSHA (ioredis loads it again after a Redis restart). */
export interface MeterRedis {
  redis: Redis;
  reserve: ScriptCall;
  settle: ScriptCall;
  release: ScriptCall;
  unbill: ScriptCall;
  seed: ScriptCall;
  status: ScriptCall;
  takeMinute: ScriptCall;
  failureRefusal: ScriptCall;
  failureRecord: ScriptCall;
}

const SCRIPTS = {
  reserve: [RESERVE_SCRIPT, 4],
  settle: [SETTLE_SCRIPT, 4],
  release: [RELEASE_SCRIPT, 2],
  unbill: [UNBILL_SCRIPT, 2],
  seed: [SEED_SCRIPT, 2],
  status: [STATUS_SCRIPT, 4],
  takeMinute: [TAKE_MINUTE_SCRIPT, 1],
  failureRefusal: [FAILURE_REFUSAL_SCRIPT, 1],
  failureRecord: [FAILURE_RECORD_SCRIPT, 1],
} as const;

/**
 * One connection per node. Every wait is bounded: no offline queue (a command while Redis is
 * unreachable fails at once), a command timeout, reconnection in the background. The request
 * path turns any failure into 503 with retry-after.
 */
export async function openMeterRedis(redisUrl: string, commandTimeoutMs = 1_000, keyPrefix = ''): Promise<MeterRedis> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    keyPrefix,
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
  });
  // connection errors surface on the commands; the event must not crash the process
  redis.on('error', () => {});
  try {
    await redis.connect();
    // connect() can resolve before the ready check; without an offline queue, commands need ready
    if (redis.status !== 'ready') {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('not ready in time')), commandTimeoutMs * 5);
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  } catch (error) {
    redis.disconnect();
    throw new Error(`cannot reach Redis at ${redactUrl(redisUrl)}: ${(error as Error).message}`);
  }
  const calls: Partial<MeterRedis> = { redis };
  for (const [name, [lua, numberOfKeys]] of Object.entries(SCRIPTS)) {
    // prefixed: a command named like a client property (`status`) would shadow it
    const commandName = `esm_${name}`;
    redis.defineCommand(commandName, { lua, numberOfKeys });
    const command = (redis as unknown as Record<string, ScriptCall>)[commandName];
    (calls as Record<string, unknown>)[name] = (...keysThenArgs: (string | number)[]) => command.apply(redis, keysThenArgs);
  }
  return calls as MeterRedis;
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/** A ServiceError passes through; anything else (unreachable, timed out) becomes a 503. */
export function asStoreError(error: unknown, what: string): ServiceError {
  if (error instanceof ServiceError) return error;
  console.error(`${what} unavailable; answering 503:`, error instanceof Error ? error.message : error);
  return errors.storeUnavailable(STORE_RETRY_AFTER_SECONDS);
}
