/**
 * A capability is one priced operation with one parameter schema and one handler. REST routes
 * (and, later, MCP tools) are thin adapters that call `executeCapability`, so both forms take
 * the same parameters, return the same body and cost the same.
 */
import type { z } from 'zod';
import { errors, parseParams, ServiceError } from '@evidence/schemas';
import type { AuthenticatedCaller, Meter, Reservation } from '@evidence/stores';
import type { RequestReport } from './observability/logging.js';
import type { Services } from './services.js';

export interface Capability<Schema extends z.ZodObject = z.ZodObject, Body = unknown> {
  /** Route and tool family name, also the ledger's route column. */
  name: string;
  /** Credits a successful call costs (SPEC 8). */
  cost: number;
  /** Credits a call that ran and failed costs (SPEC 8: 1 for assemble_context, ground, changes). */
  failureCost: number;
  /** Other names a parameter is accepted under (alias -> parameter), e.g. `q` for `objective`. */
  aliases?: Record<string, string>;
  params: Schema;
  /** The body a successful call returns (MCP outputSchema, OpenAPI). */
  response: z.ZodType;
  run(params: z.output<Schema>, services: Services): Promise<Body>;
  /** Calls wait their turn at the evidence gate (their fan-out of searches is large). */
  gated?: boolean;
}

export interface CapabilityOutcome<Body, Prepared = never> {
  body: Body;
  credits: number;
  /** What `prepare` made of the body while the ledger row was being committed. */
  prepared?: Prepared;
}

let requestCounter = 0;
function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${process.pid.toString(36)}-${Date.now().toString(36)}-${requestCounter.toString(36)}`;
}

/**
 * Errors after which the call is considered to have run (and is billed its failure cost): a
 * lookup that found nothing (404), or any error a handler raised after its search ran (marked
 * with `ranAndFailed`).
 */
function ranBeforeFailing(error: unknown): boolean {
  return error instanceof ServiceError && (error.kind === 'not_found' || error.ran);
}

/** REST parameter aliases: `alias -> parameter` (changes takes `q` for `objective`). */
function applyAliases(raw: Record<string, unknown>, aliases: Record<string, string> | undefined): Record<string, unknown> {
  if (!aliases) return raw;
  const renamed = { ...raw };
  for (const [alias, parameter] of Object.entries(aliases)) {
    if (renamed[alias] === undefined) continue;
    if (renamed[parameter] === undefined) renamed[parameter] = renamed[alias];
    delete renamed[alias];
  }
  return renamed;
}

/** An answer body that says part of the index did not answer (`partial: true`, or ground/changes' `status: partial`). */
function isPartial(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const fields = body as { partial?: unknown; status?: unknown };
  return fields.partial === true || fields.status === 'partial';
}

/**
 * Validate (a 400 costs nothing), reserve the cost (429s), run, then settle the ledger row
 * durably before the caller answers. A call that did not run is released, never billed.
 * Credits settled and partial answers go to the metrics and, when given, the request's report.
 * `prepare` (a transport's serialisation of the body) runs while the row is being committed,
 * so a lone call waits for the commit's fsync and its serialisation at once, not one after the
 * other; the answer still leaves only after the commit.
 */
export async function executeCapability<Schema extends z.ZodObject, Body, Prepared = never>(
  capability: Capability<Schema, Body>,
  rawParams: Record<string, unknown>,
  caller: AuthenticatedCaller,
  services: Services,
  report?: RequestReport,
  prepare?: (body: Body) => Prepared,
): Promise<CapabilityOutcome<Body, Prepared>> {
  const params = parseParams(capability.params, applyAliases(rawParams, capability.aliases));
  return services.inFlight.track(() => runAndSettle(capability, params, caller, services, report, prepare));
}

async function runAndSettle<Schema extends z.ZodObject, Body, Prepared>(
  capability: Capability<Schema, Body>,
  params: z.infer<Schema>,
  caller: AuthenticatedCaller,
  services: Services,
  report: RequestReport | undefined,
  prepare: ((body: Body) => Prepared) | undefined,
): Promise<CapabilityOutcome<Body, Prepared>> {
  const meter = services.stores.meter;
  let reservation: Reservation;
  try {
    reservation = await meter.reserve({
      tenant: caller.tenant,
      route: capability.name,
      requestId: nextRequestId(),
      cost: capability.cost,
    });
  } catch (error) {
    if (error instanceof ServiceError) services.metrics.refused(error.kind);
    throw error;
  }
  const billed = (credits: number) => {
    services.metrics.billed(capability.name, credits, caller.tenant);
    if (report) report.credits += credits;
  };
  let body: Body;
  try {
    body = capability.gated
      ? await services.evidenceGate.run(() => capability.run(params, services))
      : await capability.run(params, services);
  } catch (error) {
    // A call cut off by a shutdown (its workers closed under it) was never answered: free.
    if (ranBeforeFailing(error) && !services.inFlight.stopping) {
      const failureCredits = Math.min(capability.failureCost, capability.cost);
      await settleDurably(meter, reservation, failureCredits);
      billed(failureCredits);
    } else {
      await meter.release(reservation);
    }
    throw error;
  }
  const settled = settleDurably(meter, reservation, capability.cost);
  try {
    return { body, credits: capability.cost, prepared: prepare?.(body) };
  } finally {
    // The row is committed (or refused with a 503) before anything answers, prepared or not;
    // a committed row is billed even when preparing the answer failed.
    await settled;
    billed(capability.cost);
    if (isPartial(body)) {
      services.metrics.partial(capability.name);
      if (report) report.partial = true;
    }
  }
}

/** Seconds a caller is told to wait when the ledger could not take a row. */
const LEDGER_RETRY_AFTER_SECONDS = 1;

/**
 * Settle, or answer 503 with `retry-after` when the ledger cannot make the row durable (its
 * database locked by another process past the busy timeout, a full disk): no answer leaves
 * without its row, and a call without a row is not charged.
 */
async function settleDurably(meter: Meter, reservation: Reservation, credits: number): Promise<void> {
  try {
    await meter.settle(reservation, credits);
  } catch (error) {
    console.error('usage ledger could not record a call; answering 503:', error instanceof Error ? error.message : error);
    throw errors.storeUnavailable(LEDGER_RETRY_AFTER_SECONDS);
  }
}
