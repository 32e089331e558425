/**
 * The one error table: every error the service answers, and per kind
 * - `status`: the HTTP status (ServiceError);
 * - `retryAfter`: whether its answers carry a `retry-after` header (OpenAPI's error responses);
 * - `access`: an answer about the caller's key or allowance rather than the call (MCP answers
 *   those as JSON-RPC errors, `packages/server/src/mcp-tools.ts`);
 * - `refusal`: the cause a 429 is counted under in /metrics (`evidence_refusals_total`);
 * - `summary`: what it means, for OpenAPI's error responses and docs/API.md.
 * The bodies are the `errors` constructors below. REST and MCP both answer from here.
 */
export const ERROR_KINDS = {
  bad_parameter: { status: 400, retryAfter: false, access: false, summary: 'a malformed parameter; the body names it and what it accepts; costs nothing' },
  no_embedder: { status: 400, retryAfter: false, access: false, summary: 'similar on a node that serves no vectors (EMBEDDER=none)' },
  unauthenticated: { status: 401, retryAfter: false, access: true, summary: 'no key, unknown key, revoked key, or a key not yet propagated (the same body for all)' },
  suspended: { status: 402, retryAfter: false, access: true, summary: 'account suspended for billing' },
  not_found: { status: 404, retryAfter: false, access: false, summary: 'no such passage, page or route' },
  method_not_allowed: { status: 405, retryAfter: false, access: false, summary: 'the route exists with another method' },
  timeout: { status: 408, retryAfter: false, access: false, summary: 'every shard ran out of time (a slow moment: retrying clears it)' },
  payload_too_large: { status: 413, retryAfter: false, access: false, summary: 'a request body over the limit, or a JSON-RPC batch of more messages than the limit' },
  rate_limited: { status: 429, retryAfter: true, access: true, refusal: 'rate', summary: 'over the per-minute rate' },
  credits_exhausted: { status: 429, retryAfter: false, access: true, refusal: 'hard_cap', summary: 'a hard-capped key without the credits the call costs (lasts until next month)' },
  auth_flood: { status: 429, retryAfter: true, access: true, refusal: 'address', summary: 'too many failed authentications from this address' },
  no_shard: { status: 503, retryAfter: false, access: false, summary: 'no shard can serve' },
  at_capacity: { status: 503, retryAfter: true, access: false, summary: 'at capacity: the queues are full' },
  shutting_down: { status: 503, retryAfter: true, access: false, summary: 'this server is shutting down (retry on another node)' },
  store_unavailable: { status: 503, retryAfter: true, access: false, summary: 'the accounts store is busy or unreachable' },
  embedder_unavailable: { status: 503, retryAfter: false, access: false, summary: 'the embedding model failed on this query' },
  internal: { status: 500, retryAfter: false, access: false, summary: 'an internal error (its detail is in the operator\'s log)' },
} as const satisfies Record<string, { status: number; retryAfter: boolean; access: boolean; refusal?: 'rate' | 'hard_cap' | 'address'; summary: string }>;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** The causes 429s are counted under. */
export type RefusalCause = 'rate' | 'hard_cap' | 'address';

/** The refusal cause of an error kind, when it is a 429 counted in /metrics. */
export function refusalCauseOf(kind: ErrorKind): RefusalCause | undefined {
  const entry = ERROR_KINDS[kind];
  return 'refusal' in entry ? entry.refusal : undefined;
}

/** Whether an error is about the caller's key or allowance (401, 402 and the 429s). */
export function isAccessRefusal(kind: ErrorKind): boolean {
  return ERROR_KINDS[kind].access;
}

/** An error a route or tool answers with; the transport turns it into status + text/plain body. */
export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  /** seconds, sent as `retry-after` when set */
  readonly retryAfter?: number;
  /** The call ran (it searched) before it failed: billed its failure cost, not released. */
  readonly ran: boolean;

  constructor(kind: ErrorKind, message: string, options: { retryAfter?: number; ran?: boolean } = {}) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.status = ERROR_KINDS[kind].status;
    this.retryAfter = options.retryAfter;
    this.ran = options.ran ?? false;
  }
}

/**
 * The error a call that already ran answers with: the same status and text, marked as run so
 * it is billed its failure cost. An error that is not a ServiceError becomes the internal one
 * (its detail goes to the operator's log).
 */
export function ranAndFailed(error: unknown): ServiceError {
  if (error instanceof ServiceError) {
    return error.ran ? error : new ServiceError(error.kind, error.message, { retryAfter: error.retryAfter, ran: true });
  }
  console.error('internal error after the call ran:', error);
  return new ServiceError('internal', 'internal error', { ran: true });
}

/** At most this many characters of a caller's text are echoed in an error body. */
export const ECHO_MAX_CHARS = 200;

/** A caller's text as an error body shows it: control characters escaped (`\u0000`), cut to ECHO_MAX_CHARS characters. */
function echoed(text: string): string {
  const escaped = text.replace(/[\u0000-\u001f\u007f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped.length <= ECHO_MAX_CHARS) return escaped;
  return `${[...escaped].slice(0, ECHO_MAX_CHARS).join('')}... (${text.length} characters)`;
}

/** Fixed bodies that must not vary (401 reveals nothing about why a key failed). */
export const UNAUTHENTICATED_BODY = 'unauthenticated: missing, unknown or revoked api key';

export const errors = {
  badParameter: (name: string, accepts: string) =>
    new ServiceError('bad_parameter', `invalid parameter ${name}: ${accepts}`),
  unauthenticated: () => new ServiceError('unauthenticated', UNAUTHENTICATED_BODY),
  suspended: () => new ServiceError('suspended', 'account suspended for billing'),
  notFound: (what: string) => new ServiceError('not_found', `not found: ${echoed(what)}`),
  rateLimited: (retryAfter: number) =>
    new ServiceError('rate_limited', `rate limited: per-minute credits spent, retry after ${retryAfter}s`, { retryAfter }),
  creditsExhausted: () =>
    new ServiceError('credits_exhausted', 'monthly credits exhausted: hard cap reached until the next period'),
  authFlood: (retryAfter: number) =>
    new ServiceError('auth_flood', `too many unauthenticated calls from this address, retry after ${retryAfter}s`, { retryAfter }),
  noShard: () => new ServiceError('no_shard', 'no shard can serve this request'),
  atCapacity: (retryAfter: number) =>
    new ServiceError('at_capacity', `at capacity, retry after ${retryAfter}s`, { retryAfter }),
  timeout: () => new ServiceError('timeout', 'request exceeded the server timeout'),
  payloadTooLarge: (maxBytes: number) =>
    new ServiceError('payload_too_large', `payload too large: a request body may hold at most ${maxBytes} bytes`),
  batchTooLarge: (maxMessages: number, messages: number) =>
    new ServiceError('payload_too_large', `payload too large: a JSON-RPC batch may hold at most ${maxMessages} messages; this one holds ${messages} (send the rest in further requests)`),
  shuttingDown: () =>
    new ServiceError('shutting_down', 'unavailable: this server is shutting down; retry (on another node) after 1s', { retryAfter: 1 }),
  storeUnavailable: (retryAfter: number) =>
    new ServiceError('store_unavailable', `unavailable: the accounts store is busy or unreachable, retry after ${retryAfter}s`, { retryAfter }),
};
