/**
 * The request log: one JSON line per answered request, as pino would write it (`level`, `time`,
 * `pid`, the request's fields, `msg`), built and written off the request path.
 *
 * Answering a request only queues what its line reports (the `AnsweredRequest` the transport
 * already made, and the clock); the queued lines are built and handed to the destination in one
 * write at most FLUSH_INTERVAL_MS later (or at once past MAX_QUEUED_LINES). Measured with wrk at
 * 16 connections on node:http (bench/results/2026-11-28-http-layers.md): pino's line per answer
 * took 9.3 µs of the main thread and /account at info served 0.82x its answers at warn; queued
 * and flushed per event-loop turn, 3.1 µs and 0.86x (a write per turn of one or two answers);
 * flushed every 10 ms, 0.92x, the server's CPU per answer 0.036 ms against 0.033 at warn.
 *
 * A 500 is logged at error with the error's stack through the logger itself, after the lines
 * queued before it (so the log keeps the order requests were answered in). The price of queuing
 * is the same as pino's asynchronous destination's: lines of the last 10 ms before a crash
 * (SIGKILL, abort) may be lost; a normal shutdown flushes them (`flush`).
 */
import type { DestinationStream } from 'pino';
import { ServiceError } from '@evidence/schemas';
import type { AnsweredRequest, Logger } from './logging.js';

/** Lines queued past this many are written at once instead of waiting for the timer. */
export const MAX_QUEUED_LINES = 4096;
/** How long a queued line may wait for the lines after it (one write for all of them). */
export const FLUSH_INTERVAL_MS = 10;

interface Queued {
  answered: AnsweredRequest;
  /** Milliseconds since the epoch when the request was answered (the line's `time`). */
  at: number;
}

export class RequestLog {
  private queued: Queued[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly pidText: string;

  constructor(
    private readonly logger: Logger,
    private readonly destination: DestinationStream,
  ) {
    this.pidText = String(process.pid);
  }

  /** Queue the line of an answered request (nothing to build or write now). */
  record(answered: AnsweredRequest): void {
    if (!isServiceCause(answered.cause)) {
      // a bug: its line carries the error's stack, at error, in order after the queued lines
      if (!this.logger.isLevelEnabled('error')) return;
      this.flush();
      this.logger.error(errorLine(answered), 'request');
      return;
    }
    if (!this.logger.isLevelEnabled('info')) return;
    this.queued.push({ answered, at: Date.now() });
    if (this.queued.length >= MAX_QUEUED_LINES) {
      this.flush();
    } else if (this.timer === null) {
      this.timer = setTimeout(this.flushQueued, FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Write every queued line now (one write). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.queued.length === 0) return;
    const queued = this.queued;
    this.queued = [];
    let chunk = '';
    for (const { answered, at } of queued) chunk += this.line(answered, at);
    this.destination.write(chunk);
  }

  private readonly flushQueued = (): void => {
    this.timer = null;
    this.flush();
  };

  /** The line pino writes for `logger.info(fields, 'request')`, key for key and in order. */
  private line(answered: AnsweredRequest, at: number): string {
    const cause = answered.cause === undefined ? '' : `,"cause":${JSON.stringify(causeKind(answered.cause))}`;
    return (
      `{"level":"info","time":"${new Date(at).toISOString()}","pid":${this.pidText}` +
      `,"route":${JSON.stringify(answered.route)},"method":${JSON.stringify(answered.method)},"status":${answered.status}` +
      `,"latency_ms":${latencyMs(answered.seconds)},"credits":${answered.report.credits}` +
      `,"tenant":${JSON.stringify(answered.report.tenant)},"request_id":${JSON.stringify(answered.requestId)}` +
      `,"partial":${answered.report.partial}${cause},"msg":"request"}\n`
    );
  }
}

/** An answer made from no error, a ServiceError, or a parser's error code (a string): logged at info. */
function isServiceCause(cause: unknown): boolean {
  return cause === undefined || cause instanceof ServiceError || typeof cause === 'string';
}

function causeKind(cause: unknown): string {
  return typeof cause === 'string' ? cause : (cause as ServiceError).kind;
}

function latencyMs(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e3;
}

/** The fields of a 500's line: `cause` internal and the error (message and stack). */
function errorLine(answered: AnsweredRequest): Record<string, unknown> {
  const cause = answered.cause;
  return {
    route: answered.route,
    method: answered.method,
    status: answered.status,
    latency_ms: latencyMs(answered.seconds),
    credits: answered.report.credits,
    tenant: answered.report.tenant,
    request_id: answered.requestId,
    partial: answered.report.partial,
    cause: 'internal',
    err: cause instanceof Error ? { type: cause.name, message: cause.message, stack: cause.stack } : { message: String(cause) },
  };
}
