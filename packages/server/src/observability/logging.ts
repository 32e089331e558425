/**
 * Structured logs through pino: one JSON line per answered request, on stdout by default.
 *
 * The destination is pino's asynchronous one (sonic-boom, `sync: false`): a line is handed to
 * the kernel by a background write instead of a blocking write(2) per request, so logging stays
 * off the request path's latency. The price is durability: lines written in the last moments
 * before a crash (SIGKILL, abort) may be lost; a normal shutdown flushes them. Billing does not
 * depend on logs (the usage ledger is durable), which is why speed wins here.
 *
 * What a line never holds: the API key, its hash, the query string or any parameter value.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { ServiceError } from '@evidence/schemas';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout (asynchronous) when absent. Tests pass a stream that keeps them. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? pino.destination({ dest: 1, sync: false });
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** What the handlers of a request learn about it, for its log line: filled in as it runs. */
export interface RequestReport {
  /** The authenticated tenant, null before (or without) authentication. */
  tenant: string | null;
  /** Credits settled by the calls this request made (an MCP batch may make several). */
  credits: number;
  /** An answer (or one of a batch's) was partial. */
  partial: boolean;
}

export function newRequestReport(): RequestReport {
  return { tenant: null, credits: 0, partial: false };
}

/** One answered request, as the transport saw it. */
export interface AnsweredRequest {
  route: string;
  method: string;
  status: number;
  seconds: number;
  requestId: string;
  report: RequestReport;
  /** The error the answer was made from, if any (a string: the HTTP parser's error code). */
  cause?: unknown;
}

/**
 * The log line of a request: info, or error for a 500 (with the error's message and stack).
 * `cause` is the error kind of the table in packages/schemas (never its message, which may name
 * a parameter value), `internal` for a bug.
 */
export function logRequest(logger: Logger, answered: AnsweredRequest): void {
  const line: Record<string, unknown> = {
    route: answered.route,
    method: answered.method,
    status: answered.status,
    latency_ms: Math.round(answered.seconds * 1e6) / 1e3,
    credits: answered.report.credits,
    tenant: answered.report.tenant,
    request_id: answered.requestId,
    partial: answered.report.partial,
  };
  if (answered.cause === undefined) {
    logger.info(line, 'request');
    return;
  }
  if (answered.cause instanceof ServiceError || typeof answered.cause === 'string') {
    line.cause = typeof answered.cause === 'string' ? answered.cause : answered.cause.kind;
    logger.info(line, 'request');
    return;
  }
  line.cause = 'internal';
  line.err = answered.cause instanceof Error ? { type: answered.cause.name, message: answered.cause.message, stack: answered.cause.stack } : { message: String(answered.cause) };
  logger.error(line, 'request');
}
