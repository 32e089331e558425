/**
 * The main thread's cost of one request log line, in-process (no server, no load generator, so
 * little of the machine's other load shows): pino's `logger.info(fields, 'request')` per answer
 * as the server did before (asynchronous destination), against the request log's queue, flushed
 * once per 16 answers as one event-loop turn at 16 connections would. Both write to /dev/null.
 * Rounds alternate the two; the figure is the main thread's CPU microseconds per line
 * (process.threadCpuUsage), median and spread.
 */
import pino from 'pino';
import { createLogger, newRequestReport, RequestLog, type AnsweredRequest } from '@evidence/server';

const LINES = 100_000;
const PER_TURN = 16;

function answered(index: number): AnsweredRequest {
  return { route: '/account', method: 'GET', status: 200, seconds: 0.000412, requestId: `0f0c6c8e-3c43-4f7e-9a53-${String(index).padStart(12, '0')}`, report: { ...newRequestReport(), tenant: 'bench' } };
}

/** The line the server logged per answer before the request log: the same fields, through pino. */
function pinoLine(logger: ReturnType<typeof createLogger>, request: AnsweredRequest): void {
  logger.info(
    {
      route: request.route,
      method: request.method,
      status: request.status,
      latency_ms: Math.round(request.seconds * 1e6) / 1e3,
      credits: request.report.credits,
      tenant: request.report.tenant,
      request_id: request.requestId,
      partial: request.report.partial,
    },
    'request',
  );
}

/** CPU time of this (the main) thread, user + system, in microseconds: not the wall clock, which the machine's other load stretches. */
function mainThreadCpuUs(): number {
  // (Node 23.9+; the @types/node of this repository is older)
  const usage = (process as NodeJS.Process & { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage();
  return usage.user + usage.system;
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

export async function measureLogLineCost(rounds: number): Promise<{ pinoUs: number[]; queuedUs: number[] }> {
  const requests = Array.from({ length: LINES }, (_, index) => answered(index));
  const pinoUs: number[] = [];
  const queuedUs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const arm of round % 2 === 0 ? ['pino', 'queued'] : ['queued', 'pino']) {
      const destination = pino.destination({ dest: '/dev/null', sync: false });
      await new Promise((resolve) => destination.once('ready', resolve));
      const logger = createLogger({ level: 'info', destination });
      const log = new RequestLog(logger, destination);
      const started = mainThreadCpuUs();
      if (arm === 'pino') {
        for (const request of requests) pinoLine(logger, request);
      } else {
        for (let index = 0; index < requests.length; index++) {
          log.record(requests[index]);
          if (index % PER_TURN === PER_TURN - 1) log.flush();
        }
        log.flush();
      }
      const us = (mainThreadCpuUs() - started) / LINES;
      (arm === 'pino' ? pinoUs : queuedUs).push(us);
      await settle();
      destination.end();
    }
  }
  return { pinoUs, queuedUs };
}
