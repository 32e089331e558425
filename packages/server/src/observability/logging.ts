/**
 * Structured logs through pino, on stdout by default: the server's notices, and the request log's
 * lines (request-log.ts, which writes them to the same destination in pino's format).
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

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go; stdout (asynchronous) when absent. Tests pass a stream that keeps them. */
  destination?: DestinationStream;
}

/** Where the log goes: `destination`, else stdout through pino's asynchronous destination. */
export function logDestination(destination?: DestinationStream): DestinationStream {
  return destination ?? pino.destination({ dest: 1, sync: false });
}

export function createLogger(options: LoggerOptions): Logger {
  const destination = logDestination(options.destination);
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
