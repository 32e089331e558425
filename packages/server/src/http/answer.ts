/**
 * HTTP answers without a transport: a request copied into plain values goes in, status, headers
 * and body come out. The node:http transport (http/transport.ts) writes them; any other
 * transport can serve the same capabilities through here.
 */
import type { z } from 'zod';
import { ServiceError } from '@evidence/schemas';
import type { AuthenticatedCaller } from '@evidence/stores';
import { executeCapability, type Capability } from '../capability.js';
import type { RequestReport } from '../observability/logging.js';
import type { Services } from '../services.js';

export type Headers = Record<string, string>;

/** What a handler needs of a request, copied out of the transport's request object. */
export interface RequestSnapshot {
  method: string;
  url: string;
  query: Record<string, string>;
  /** Every value of each query parameter given more than once (`query` holds the first). */
  repeated?: Record<string, string[]>;
  headers: { xApiKey: string | null; authorization: string | null };
  address: string;
  parameters: string[];
  /** The caller's well-formed `x-request-id`, else one made for this request; every answer carries it. */
  requestId: string;
  /** What the request's log line reports (tenant, credits, partial), filled in as it runs. */
  report?: RequestReport;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
  headers: Headers;
  /** The error this answer was made from (for the request's log line), if any. */
  cause?: unknown;
}

/** Query parameters of a raw query string (without `?`); the first occurrence of a name wins. */
export function parseQuery(raw: string): Record<string, string> {
  return readQuery(raw).query;
}

/**
 * Query parameters of a raw query string: `query` with each name's first value, and `repeated`
 * with every value of each name given more than once (a capability reads those as a list, or
 * refuses them: `capabilityWork`).
 */
export function readQuery(raw: string): { query: Record<string, string>; repeated?: Record<string, string[]> } {
  // Without a prototype: `toString`, `constructor` or `__proto__` is a parameter name like any
  // other (on `{}` the first two are found inherited, and `__proto__` sets the prototype).
  const query: Record<string, string> = Object.create(null);
  let repeated: Record<string, string[]> | undefined;
  if (!raw) return { query };
  for (const [name, value] of new URLSearchParams(raw)) {
    if (!(name in query)) {
      query[name] = value;
    } else {
      repeated ??= Object.create(null) as Record<string, string[]>;
      (repeated[name] ??= [query[name]]).push(value);
    }
  }
  return repeated ? { query, repeated } : { query };
}

/** A body already serialised as JSON (a capability's, made while its ledger row was committed). */
export class SerializedJson {
  constructor(readonly text: string) {}
}

export function jsonAnswer(body: unknown, headers: Headers = {}): HttpAnswer {
  return { status: 200, contentType: 'application/json', body: body instanceof SerializedJson ? body.text : JSON.stringify(body), headers };
}

export const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** A plain-text answer (SPEC 7: every error body is text/plain). */
export function textAnswer(status: number, body: string, headers: Headers = {}): HttpAnswer {
  return { status, contentType: PLAIN_TEXT, body, headers };
}

/**
 * The `www-authenticate` of every 401 (RFC 9110 15.5.2): the two ways a key is accepted, a
 * bearer token or the x-api-key header. The body stays the one fixed 401 body (SPEC 5.6).
 */
export const WWW_AUTHENTICATE = 'Bearer realm="evidence", ApiKey header="x-api-key"';

/**
 * A ServiceError's status and message as plain text (SPEC 7); anything else is a 500 whose
 * body names the request id the request's log line carries with the cause. The error rides
 * along as `cause` for that line.
 */
export function errorAnswer(error: unknown, headers: Headers = {}, requestId?: string): HttpAnswer {
  const serviceError = error instanceof ServiceError ? error : null;
  const errorHeaders: Headers = { ...headers };
  if (!serviceError) {
    return { ...textAnswer(500, requestId ? `internal error (request id ${requestId})` : 'internal error', errorHeaders), cause: error };
  }
  if (serviceError.retryAfter !== undefined) errorHeaders['retry-after'] = String(serviceError.retryAfter);
  if (serviceError.status === 401) errorHeaders['www-authenticate'] = WWW_AUTHENTICATE;
  return { ...textAnswer(serviceError.status, serviceError.message, errorHeaders), cause: serviceError };
}

/**
 * Authenticate a request's key: the caller, or the error to answer with (401, 402, or 429 for an
 * address that keeps failing, which is counted as a refusal). Fills in the report's tenant.
 */
export async function authenticateRequest(services: Services, snapshot: RequestSnapshot): Promise<AuthenticatedCaller | Error> {
  try {
    const caller = await services.stores.authenticate(snapshot.headers, snapshot.address);
    if (snapshot.report) snapshot.report.tenant = caller.tenant;
    return caller;
  } catch (error) {
    if (error instanceof ServiceError) services.metrics.refused(error.kind);
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * `x-ratelimit-remaining` of an authenticated answer. A fleet meter that cannot reach Redis
 * leaves the header out rather than fail an answer already computed.
 */
export async function rateLimitHeaders(services: Services, tenant: string): Promise<Headers> {
  try {
    return { 'x-ratelimit-remaining': String(await services.stores.meter.remainingThisMinute(tenant)) };
  } catch {
    return {};
  }
}

export type AuthenticatedWork = (caller: AuthenticatedCaller, snapshot: RequestSnapshot) => Promise<unknown>;

/**
 * Authenticate, then run `work` and answer its JSON (or its error). Every authenticated answer
 * carries `x-ratelimit-remaining`. Never rejects.
 */
export async function answerAuthenticated(services: Services, snapshot: RequestSnapshot, work: AuthenticatedWork): Promise<HttpAnswer> {
  const caller = await authenticateRequest(services, snapshot);
  if (caller instanceof Error) return errorAnswer(caller, {}, snapshot.requestId);
  try {
    const body = await work(caller, snapshot);
    return jsonAnswer(body, await rateLimitHeaders(services, caller.tenant));
  } catch (error) {
    return errorAnswer(error, await rateLimitHeaders(services, caller.tenant), snapshot.requestId);
  }
}

function serializeJson(body: unknown): SerializedJson {
  return new SerializedJson(JSON.stringify(body));
}

/** The work of a capability's GET route: query and path parameters in, the capability's body out. */
export function capabilityWork<Schema extends z.ZodObject, Body>(
  services: Services,
  capability: Capability<Schema, Body>,
  pathParameterNames: string[] = [],
): AuthenticatedWork {
  return async (caller, snapshot) => {
    // A parameter given more than once arrives as the list of its values: a list parameter
    // takes them all, any other answers 400 naming it (never the first value, silently).
    const raw: Record<string, unknown> = { ...snapshot.query, ...snapshot.repeated };
    pathParameterNames.forEach((name, index) => {
      raw[name] = snapshot.parameters[index];
    });
    const outcome = await executeCapability(capability, raw, caller, services, snapshot.report, serializeJson);
    return outcome.prepared ?? outcome.body;
  };
}
